//! Output safe for its reader (issue 30, finds 11 and 12): hostile tags,
//! tokens, comments and file names reach no terminal, annotation or page raw.

mod common;

use common::gamerec;

/// The page's data element: the text between its tags.
fn page_data(page: &str) -> &str {
    let start = "<script type=\"application/json\" id=\"data\">";
    let at = page.find(start).map_or(0, |i| i + start.len());
    let rest = page.get(at..).unwrap_or_default();
    rest.get(..rest.find("</script>").unwrap_or(rest.len()))
        .unwrap_or_default()
}

#[test]
fn html_data_holds_no_markup_the_parser_acts_on() {
    let record = "[Game \"reversi\"]\n[Event \"<!--<script>\"]\n[Black \"</script><b>B</b>\"]\n[White \"--> & \u{2028}\u{2029}\"]\n\n1. f5 d6\n";
    let run = gamerec(&["html", "-"], record.as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let data = page_data(&run.stdout);
    assert!(data.contains("\\u003c!--\\u003cscript\\u003e"), "{data}");
    for raw in [
        "</script", "<!--", "-->", "<", ">", "&", "\u{2028}", "\u{2029}",
    ] {
        assert!(!data.contains(raw), "raw {raw:?} in the page's data");
    }
    // the data element is the only one: nothing after it opened another
    assert_eq!(run.stdout.matches("<script").count(), 2);
    let back: serde_json::Value = serde_json::from_str(data).expect("the data is JSON");
    let text = back.to_string();
    assert!(text.contains("<!--<script>"), "the tag comes back whole");
    assert!(text.contains("</script><b>B</b>"));
}
