//! The library example (`examples/library.rs`, the front only) runs to its
//! end: random games of every game, legal moves, a replayed record.

#[path = "../examples/library.rs"]
mod library;

#[test]
fn the_library_example_runs() {
    library::main().unwrap();
}
