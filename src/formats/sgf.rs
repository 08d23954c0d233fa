//! What GGF and Pentobi's files share of SGF's property syntax
//! (`ID[value]`): a value's escaping, written once.
//!
//! Inside a value, `]` and `\` are written `\]` and `\\`; any other
//! character stands for itself. Reading stays each format's own (GGF's
//! properties in one flat game, Pentobi's trees of nodes with line breaks
//! after `\` dropped), so that their diagnostics and spans do not move.

/// A property value as SGF writes it: `\` and `]` escaped.
pub(crate) fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_the_closing_bracket_and_the_backslash() {
        assert_eq!(escape(r"a]b\c[d"), r"a\]b\\c[d");
        assert_eq!(escape("plain"), "plain");
    }
}
