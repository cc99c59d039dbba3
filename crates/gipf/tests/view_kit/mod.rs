//! Checks of the parts of a game's `View` that the browser's board help uses, shared by the
//! four game crates (`#[path]`-included by their tests): the Fluent texts (every message the
//! picture, the click steps and the end reasons name exists in English, Korean and Russian and
//! formats without errors, plurals included), click steps that agree with click paths, and
//! previews and pictures that are well-formed XML.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap};

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
use ply_core::View;

/// The languages every game speaks.
pub const LANGS: [&str; 3] = ["en", "ko", "ru"];

/// The game's messages in `lang`, parsed; panics on a syntax error or a duplicate message.
pub fn bundle<G: View>(lang: &str) -> FluentBundle<FluentResource> {
    let text = G::texts(lang);
    assert!(!text.is_empty(), "{}: no texts for {lang}", G::NAME);
    let res = FluentResource::try_new(text.to_string())
        .unwrap_or_else(|(_, errors)| panic!("{} {lang}.ftl does not parse: {errors:?}", G::NAME));
    let mut bundle = FluentBundle::new(vec![lang.parse().expect("a language id")]);
    bundle.set_use_isolating(false);
    bundle.add_resource(res).unwrap_or_else(|e| panic!("{} {lang}.ftl: {e:?}", G::NAME));
    bundle
}

/// The ids of the messages of an FTL text (lines that start a message).
pub fn message_ids(ftl: &str) -> BTreeSet<String> {
    ftl.lines()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_alphabetic()))
        .filter_map(|l| l.split_once('=').map(|(id, _)| id.trim().to_string()))
        .collect()
}

/// Formats message `id` with `args` in `lang`; panics when it is missing or has errors.
pub fn format(
    bundle: &FluentBundle<FluentResource>,
    lang: &str,
    id: &str,
    args: &[(&str, &str)],
) -> String {
    let msg = bundle.get_message(id).unwrap_or_else(|| panic!("{lang}: no message {id}"));
    let pattern = msg.value().unwrap_or_else(|| panic!("{lang}: message {id} has no value"));
    let mut fargs = FluentArgs::new();
    for &(name, value) in args {
        match value.parse::<f64>() {
            Ok(n) => fargs.set(name.to_string(), FluentValue::from(n)),
            Err(_) => fargs.set(name.to_string(), FluentValue::from(value.to_string())),
        }
    }
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&fargs), &mut errors);
    assert!(errors.is_empty(), "{lang}: {id} {args:?}: {errors:?}");
    assert!(!text.trim().is_empty(), "{lang}: {id} formats to nothing");
    assert!(!text.contains('{'), "{lang}: {id} left a placeable: {text}");
    text.into_owned()
}

/// A label drawn in a picture: its message id and arguments.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Label {
    pub id: String,
    pub args: Vec<(String, String)>,
    pub text: String,
}

fn attrs(tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = tag;
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq].rsplit([' ', '<']).next().unwrap_or("").to_string();
        let after = &rest[eq + 2..];
        let end = after.find('"').expect("a closing quote");
        out.push((name, after[..end].to_string()));
        rest = &after[end + 1..];
    }
    out
}

/// Every `data-label` element of `svg`; panics when one is not a `<text>` whose whole
/// content is plain text.
pub fn labels(svg: &str) -> Vec<Label> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = svg[at..].find("data-label=\"") {
        let pos = at + i;
        let open = svg[..pos].rfind('<').expect("a tag");
        let close = pos + svg[pos..].find('>').expect("the tag ends");
        let tag = &svg[open..=close];
        assert!(tag.starts_with("<text "), "a label on something else than <text>: {tag}");
        let end = close + svg[close..].find("</text>").expect("the text ends");
        let text = &svg[close + 1..end];
        assert!(!text.contains('<'), "a label holds markup: {tag}{text}");
        assert!(!text.trim().is_empty(), "a label without English text: {tag}");
        let a = attrs(tag);
        let id = a.iter().find(|(n, _)| n == "data-label").expect("data-label").1.clone();
        assert!(id.starts_with("label-"), "label id {id} does not start with label-");
        let args = a
            .iter()
            .filter_map(|(n, v)| n.strip_prefix("data-arg-").map(|n| (n.to_string(), v.clone())))
            .collect();
        out.push(Label { id, args, text: text.to_string() });
        at = end;
    }
    out
}

/// Every message the game names: `game-name`, its variants, `ids` (steps, end reasons,
/// labels with their arguments) exists in every language and formats, with numbers that
/// take every plural form; the three files hold the same messages.
pub fn check_texts<G: View>(labels: &[Label], other_ids: &[&str]) {
    let en_ids = message_ids(G::texts("en"));
    for lang in LANGS {
        assert_eq!(
            message_ids(G::texts(lang)),
            en_ids,
            "{} {lang}.ftl has other messages",
            G::NAME
        );
    }
    assert_eq!(G::texts("fr"), G::texts("en"), "English for other languages");
    let mut by_id: BTreeMap<&str, BTreeSet<Vec<(&str, &str)>>> = BTreeMap::new();
    for l in labels {
        let args: Vec<(&str, &str)> =
            l.args.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        by_id.entry(&l.id).or_default().insert(args);
    }
    for lang in LANGS {
        let b = bundle::<G>(lang);
        format(&b, lang, "game-name", &[]);
        for v in G::variants() {
            format(&b, lang, &format!("variant-{v}"), &[]);
        }
        for id in other_ids {
            assert!(!id.starts_with("label-"), "{id}");
            format(&b, lang, id, &[]);
        }
        // Steps and end reasons take no arguments.
        for id in &en_ids {
            if id.starts_with("step-") || id.starts_with("end-") {
                format(&b, lang, id, &[]);
            }
        }
        for (id, arg_sets) in &by_id {
            for args in arg_sets {
                format(&b, lang, id, args);
                // Every plural form of every numeric argument.
                for (k, (_, v)) in args.iter().enumerate() {
                    if v.parse::<f64>().is_err() {
                        continue;
                    }
                    for n in ["0", "1", "2", "3", "5", "11", "21", "22", "25", "101"] {
                        let mut a = args.clone();
                        a[k].1 = n;
                        format(&b, lang, id, &a);
                    }
                }
            }
        }
    }
    // The English text drawn is the English message.
    let en = bundle::<G>("en");
    for l in labels {
        let args: Vec<(&str, &str)> =
            l.args.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(format(&en, "en", &l.id, &args), l.text, "English fallback of {}", l.id);
    }
}

/// Checks that `text` is well-formed XML: balanced tags, quoted attributes, known entities.
/// Returns the names of the top-level elements.
pub fn check_xml(text: &str) -> Vec<String> {
    let mut stack: Vec<String> = Vec::new();
    let mut roots = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let lt = rest.find('<').unwrap_or(rest.len());
        check_chars(&rest[..lt], text);
        if lt == rest.len() {
            break;
        }
        rest = &rest[lt..];
        if let Some(r) = rest.strip_prefix("<!--") {
            let end = r.find("-->").expect("a comment ends");
            rest = &r[end + 3..];
            continue;
        }
        let gt = rest
            .find('>')
            .unwrap_or_else(|| panic!("a tag does not end: {}", &rest[..rest.len().min(80)]));
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        assert_eq!(tag.matches('"').count() % 2, 0, "unbalanced quotes in <{tag}>");
        assert!(!tag.contains('<'), "< inside a tag: {tag}");
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack.pop().unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(open, name.trim(), "<{open}> closed by </{name}>");
            continue;
        }
        let name: String = tag.chars().take_while(|c| !c.is_whitespace() && *c != '/').collect();
        assert!(
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == ':' || c == '-'),
            "bad tag name in <{tag}>"
        );
        let mut quoted = false;
        for part in tag.split('"') {
            if quoted {
                check_chars(part, text);
            }
            quoted = !quoted;
        }
        if stack.is_empty() {
            roots.push(name.clone());
        }
        if !tag.ends_with('/') {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed elements {stack:?}");
    roots
}

fn check_chars(s: &str, whole: &str) {
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        let r = &rest[i + 1..];
        let end = r.find(';').unwrap_or_else(|| panic!("a bare & in {whole}"));
        let entity = &r[..end];
        assert!(
            ["amp", "lt", "gt", "quot", "apos"].contains(&entity) || entity.starts_with('#'),
            "unknown entity &{entity};"
        );
        rest = &r[end..];
    }
}

/// Click steps of every legal move: one per click, and the same for every move at a prefix
/// they share. Returns the step ids used.
pub fn check_steps<G: View>(pos: &G) -> BTreeSet<&'static str> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut at: HashMap<Vec<String>, &'static str> = HashMap::new();
    let mut used = BTreeSet::new();
    for &mv in &moves {
        let path = pos.click_path(mv);
        let steps = pos.click_steps(mv);
        assert_eq!(
            steps.len(),
            path.len(),
            "{}: steps {steps:?} for path {path:?}",
            pos.format_move(mv)
        );
        for (i, step) in steps.iter().enumerate() {
            assert!(step.starts_with("step-"), "{step}");
            used.insert(*step);
            let prev = at.entry(path[..i].to_vec()).or_insert(step);
            assert_eq!(
                prev,
                step,
                "{}: the click after {:?} is told two ways",
                pos.format_move(mv),
                &path[..i]
            );
        }
    }
    used
}

/// Previews of every prefix of every legal move (every `stride`-th prefix): well-formed, a
/// single `<g class="preview">` when not empty, and small. Returns the prefixes that gave a
/// non-empty preview.
pub fn check_previews<G: View>(pos: &G, max_bytes: usize) -> Vec<Vec<String>> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let paths: Vec<Vec<String>> = moves.iter().map(|&m| pos.click_path(m)).collect();
    let mut prefixes: BTreeSet<Vec<String>> = BTreeSet::new();
    for p in &paths {
        for i in 0..p.len() {
            prefixes.insert(p[..i].to_vec());
        }
    }
    let mut shown = Vec::new();
    for prefix in prefixes {
        let matching: Vec<G::Move> = moves
            .iter()
            .zip(&paths)
            .filter(|(_, p)| p.starts_with(&prefix))
            .map(|(&m, _)| m)
            .collect();
        let svg = pos.preview(&prefix, &matching);
        if svg.is_empty() {
            continue;
        }
        assert!(svg.starts_with("<g class=\"preview\""), "{prefix:?}: {svg}");
        assert_eq!(check_xml(&svg), ["g"], "{prefix:?}: one element: {svg}");
        assert!(svg.len() <= max_bytes, "{prefix:?}: preview of {} bytes: {svg}", svg.len());
        assert!(
            !svg.contains("class=\"piece") && !svg.contains(" piece\"") && !svg.contains(" piece "),
            "a preview draws no `piece`: {svg}"
        );
        shown.push(prefix);
    }
    shown
}

/// The picture is well-formed, has a `coords` group of text only, and its click targets
/// and pieces have ids. Returns its labels.
pub fn check_picture<G: View>(pos: &G) -> Vec<Label> {
    let svg = pos.svg();
    assert_eq!(check_xml(&svg), ["svg"]);
    let start = svg.find("<g class=\"coords\"").expect("a coords group");
    let end = start + svg[start..].find("</g>").expect("the coords group ends");
    let coords = &svg[start..end];
    assert!(coords.matches("<text").count() >= 4, "coordinates drawn");
    let inner = &coords[coords.find('>').unwrap() + 1..];
    for tag in inner.split('<').skip(1) {
        assert!(
            tag.starts_with("text ") || tag.starts_with("/text>"),
            "only text in coords: <{tag}"
        );
    }
    assert!(!inner.contains("data-label"), "coordinates are not labels");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    for &m in &moves {
        for id in pos.click_path(m) {
            assert!(svg.contains(&format!("id=\"{id}\"")), "click target {id} is drawn");
        }
    }
    if pos.outcome().is_some() {
        assert!(!svg.contains("label-to-move"), "a finished game has nobody to move");
        assert!(pos.end_reason().is_some(), "a finished game says why");
    } else {
        assert!(pos.end_reason().is_none(), "no reason while the game goes on");
    }
    labels(&svg)
}

/// The classes of the element with id `id` in `svg` (empty when it has none).
pub fn classes_of(svg: &str, id: &str) -> Option<Vec<String>> {
    let at = svg.find(&format!(" id=\"{id}\""))?;
    let open = svg[..at].rfind('<')?;
    let close = at + svg[at..].find('>')?;
    let tag = &svg[open..=close];
    Some(
        attrs(tag)
            .into_iter()
            .find(|(n, _)| n == "class")
            .map(|(_, v)| v.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default(),
    )
}

/// How a view test walks random games: `seeds` games of each variant (seed `i * seed_mul +
/// seed_add`, at most `turns` turns); the picture and steps are checked every
/// `picture_every`-th turn and at the end, previews every `preview_every`-th turn, each
/// within `preview_bytes`.
pub struct Walk {
    pub seeds: u64,
    pub seed_mul: u64,
    pub seed_add: u64,
    pub turns: usize,
    pub picture_every: usize,
    pub preview_every: usize,
    pub preview_bytes: usize,
}

/// The positions of the random games `walk` names, game by game.
pub fn random_games<G>(walk: &Walk) -> Vec<Vec<G>>
where
    G: View + PartialEq + std::fmt::Debug,
{
    let mut out = Vec::new();
    for variant in G::variants() {
        for i in 0..walk.seeds {
            let start = G::new(variant).unwrap();
            let seed = i * walk.seed_mul + walk.seed_add;
            out.push(ply_core::testkit::random_game(&start, seed, walk.turns, |_| {}).positions);
        }
    }
    out
}

/// The end reasons of the random games `walk` names that finished, after `check` has looked
/// at the last position of each.
///
/// # Panics
/// When a finished game gives no end reason, or as `check` does.
pub fn end_reasons<G>(walk: &Walk, check: impl Fn(&G)) -> BTreeSet<&'static str>
where
    G: View + PartialEq + std::fmt::Debug,
{
    let mut reasons = BTreeSet::new();
    for game in random_games::<G>(walk) {
        let last = game.last().expect("a game has a start");
        if last.outcome().is_some() {
            check(last);
            reasons.insert(last.end_reason().expect("a finished game says why"));
        }
    }
    reasons
}

/// Whether the element with id `id` of `svg` is a piece (has the class `piece`).
///
/// # Panics
/// When `svg` has no such element.
pub fn is_piece(svg: &str, id: &str) -> bool {
    let classes = classes_of(svg, id).unwrap_or_else(|| panic!("no element {id}"));
    classes.iter().any(|c| c == "piece")
}

/// The message ids of the labels of `svg`, in order.
pub fn label_ids(svg: &str) -> Vec<String> {
    labels(svg).into_iter().map(|l| l.id).collect()
}

/// Walks random games of every variant checking pictures, steps, end reasons and previews,
/// then checks that every message they name exists in every language. Returns how many
/// positions had an end reason; asserts that some previews were drawn.
pub fn check_random_games<G>(walk: &Walk) -> usize
where
    G: View + PartialEq + std::fmt::Debug,
{
    let mut labels = Vec::new();
    let mut ids: BTreeSet<&'static str> = BTreeSet::new();
    let (mut ends, mut shown) = (0, 0);
    for game in random_games::<G>(walk) {
        {
            for (turn, pos) in game.iter().enumerate() {
                if turn % walk.picture_every == 0 || pos.outcome().is_some() {
                    labels.extend(check_picture(pos));
                    ids.extend(check_steps(pos));
                }
                if let Some(reason) = pos.end_reason() {
                    ids.insert(reason);
                    ends += 1;
                }
                if turn % walk.preview_every == 0 {
                    shown += check_previews(pos, walk.preview_bytes).len();
                }
            }
        }
    }
    assert!(shown > 0, "no preview was drawn");
    labels.sort();
    labels.dedup();
    let ids: Vec<&str> = ids.into_iter().collect();
    check_texts::<G>(&labels, &ids);
    ends
}

/// The clicks `prefix` and the legal turns whose click paths start with them (some must).
pub fn matching<G: View>(pos: &G, prefix: &[&str]) -> (Vec<String>, Vec<G::Move>) {
    let prefix: Vec<String> = prefix.iter().map(|s| s.to_string()).collect();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.retain(|&m| pos.click_path(m).starts_with(&prefix));
    assert!(!moves.is_empty(), "{prefix:?}");
    (prefix, moves)
}
