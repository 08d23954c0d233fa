use super::board::*;

#[test]
fn geometry_sizes() {
    assert_eq!(EDGE9.len(), 486);
    assert_eq!(EDGE8.len(), 384);
    assert_eq!(EDGE9.places.len(), 32_131);
    assert_eq!(EDGE8.places.len(), 24_859);
}

#[test]
fn first_moves() {
    for three in [false, true] {
        let b = Board::new(three);
        assert_eq!(b.count_moves(0), 2_478);
    }
}
