//! The one-line description of a game (`Event`, then the players in seat
//! order), from its tags.

use super::GameReport;

/// The player tags: each game's seat names, capitalised.
pub(super) const PLAYER_TAGS: [&str; 15] = [
    "Black", "White", "Blue", "Yellow", "Red", "Green", "Purple", "Orange", "Gold", "Player1",
    "Player2", "Player3", "Player4", "Player5", "Player6",
];

/// Whether [`describe`] may read the tag `name` (every game's seats,
/// capitalised, are among the player tags).
pub fn described(name: &str) -> bool {
    name == "Event" || PLAYER_TAGS.contains(&name)
}

/// The description of a game for diagnostics: `Event`, then the players in
/// seat order (player tags are the seat names capitalised: `Black`, `Gold`,
/// `Player1`).
pub fn describe(report: &GameReport) -> String {
    match &report.about {
        Some(about) => about.clone(),
        None => describe_tags(
            report.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            report.seats,
        ),
    }
}

/// [`describe`] from the tags (name, value) in file order and the seats.
pub fn describe_tags<'a, I>(tags: I, seats: &[&str]) -> String
where
    I: Iterator<Item = (&'a str, &'a str)> + Clone,
{
    // measured first, so the text is allocated once
    let mut len = 0;
    describe_pieces(tags.clone(), seats, |piece| len += piece.len());
    if len == 0 {
        return String::new();
    }
    let mut out = String::with_capacity(len);
    describe_pieces(tags, seats, |piece| out.push_str(piece));
    out
}

/// The pieces of [`describe_tags`]'s text, in order.
fn describe_pieces<'a, I>(tags: I, seats: &[&str], mut piece: impl FnMut(&'a str))
where
    I: Iterator<Item = (&'a str, &'a str)> + Clone,
{
    let event = tags.clone().find(|&(k, _)| k == "Event").map(|(_, v)| v);
    if let Some(e) = event {
        piece(e);
    }
    let mut players = 0;
    let mut add = |player: &'a str| {
        if players > 0 {
            piece(" vs ");
        } else if event.is_some() {
            piece(", ");
        }
        piece(player);
        players += 1;
    };
    if seats.is_empty() {
        // Before the seats are known (a game that could not be set up), the
        // player tags in file order.
        for (_, v) in tags.filter(|&(k, _)| PLAYER_TAGS.contains(&k)) {
            add(v);
        }
    } else {
        for seat in seats {
            if let Some((_, v)) = tags.clone().find(|&(k, _)| is_capitalised(k, seat)) {
                add(v);
            }
        }
    }
}

/// Whether `name` is `seat` with its first letter in upper case.
fn is_capitalised(name: &str, seat: &str) -> bool {
    match (name.as_bytes().split_first(), seat.as_bytes().split_first()) {
        (Some((n, name_rest)), Some((s, seat_rest))) if s.is_ascii() => {
            *n == s.to_ascii_uppercase() && name_rest == seat_rest
        }
        _ => {
            let mut c = seat.chars();
            match c.next() {
                Some(first) => name.chars().eq(first.to_uppercase().chain(c)),
                None => name.is_empty(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capitalised_seats() {
        assert!(is_capitalised("Black", "black"));
        assert!(is_capitalised("Player2", "player2"));
        assert!(!is_capitalised("black", "black"));
        assert!(!is_capitalised("Blacks", "black"));
        assert!(is_capitalised("Élan", "élan"));
        assert!(is_capitalised("", ""));
        assert!(!is_capitalised("B", ""));
    }
}
