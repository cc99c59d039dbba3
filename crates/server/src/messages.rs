//! Messages with arguments and plurals, in Fluent (FTL): the server's own (`text/*.ftl`) and
//! each game's ([`ply_core::View::texts`]).
//!
//! The server formats them with `fluent-bundle` (CLDR plural rules from `intl_pluralrules`),
//! and hands the page the same messages as a small JSON form ([`client_messages`]) that the
//! page formats with the browser's own `Intl.PluralRules`: a message is a list of parts, each a
//! text, `{"v": "name"}` (an argument) or `{"s": "name", "k": {key: parts}, "d": "other"}` (a
//! selection by an argument's plural category or value). So the board's labels, the help of
//! each click and the end of a game read right in every language, plurals included ("1 ход",
//! "2 хода", "5 ходов").

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_syntax::ast;
use serde_json::{Map, Value, json};
use unic_langid::LanguageIdentifier;

use crate::i18n::Lang;

/// The server's own messages, by language.
fn server_ftl(lang: Lang) -> &'static str {
    match lang {
        Lang::En => include_str!("../text/en.ftl"),
        Lang::Ko => include_str!("../text/ko.ftl"),
        Lang::Ru => include_str!("../text/ru.ftl"),
    }
}

/// The FTL sources a page of `game` (or a page of no game) reads in `lang`: the server's, then
/// the game's.
fn sources(lang: Lang, game: Option<&str>) -> Vec<&'static str> {
    let mut out = vec![server_ftl(lang)];
    let registry = ply_games::registry();
    if let Some(entry) = game.and_then(|g| registry.get(g).ok()) {
        out.push((entry.texts)(lang.code()));
    }
    out
}

type Bundle = fluent_bundle::concurrent::FluentBundle<FluentResource>;

/// Formats messages of one language (and one game's texts).
pub struct Messages {
    bundle: Bundle,
}

impl std::fmt::Debug for Messages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Messages")
    }
}

impl Messages {
    /// The messages of `lang` for pages of `game` (cached: built once per pair).
    #[must_use]
    pub fn of(lang: Lang, game: Option<&str>) -> Arc<Messages> {
        type Cache = std::sync::Mutex<HashMap<(Lang, Option<String>), Arc<Messages>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        let mut map = cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        map.entry((lang, game.map(str::to_string)))
            .or_insert_with(|| Arc::new(Messages::build(lang, game)))
            .clone()
    }

    fn build(lang: Lang, game: Option<&str>) -> Messages {
        let id: LanguageIdentifier = lang.code().parse().unwrap_or_default();
        let mut bundle = Bundle::new_concurrent(vec![id]);
        // Pages put text where it belongs; no bidirectional isolation marks around arguments.
        bundle.set_use_isolating(false);
        for source in sources(lang, game) {
            // A resource with errors still holds every message that parsed; the tests check
            // that every shipped resource parses whole.
            let resource = FluentResource::try_new(source.to_string()).unwrap_or_else(|(r, _)| r);
            bundle.add_resource_overriding(resource);
        }
        Messages { bundle }
    }

    /// Message `id` with arguments `args` (numbers or texts); `None` when there is no such
    /// message.
    #[must_use]
    pub fn get(&self, id: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
        let message = self.bundle.get_message(id)?;
        let pattern = message.value()?;
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            match value {
                Arg::Number(n) => fluent_args.set(*name, FluentValue::from(*n)),
                Arg::Text(t) => fluent_args.set(*name, FluentValue::from(*t)),
            }
        }
        let mut errors = Vec::new();
        let text = self.bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
        Some(text.into_owned())
    }

    /// Message `id`, or `fallback` when there is none.
    #[must_use]
    pub fn text(&self, id: &str, fallback: &str) -> String {
        self.get(id, &[]).unwrap_or_else(|| fallback.to_string())
    }
}

impl Messages {
    /// The picture `svg` with every label in this language: `<text data-label="id"
    /// data-arg-n="12">English</text>` gets message `id` with its arguments (for pictures the
    /// server shows without the page's script, such as the home page's live game).
    #[must_use]
    pub fn localize_svg(&self, svg: &str) -> String {
        let mut out = String::with_capacity(svg.len());
        let mut rest = svg;
        while let Some(at) = rest.find("<text") {
            out.push_str(&rest[..at]);
            rest = &rest[at..];
            let (Some(open_end), Some(close)) = (rest.find('>'), rest.find("</text>")) else {
                break;
            };
            let tag = &rest[..=open_end];
            let label = attribute(tag, "data-label");
            let text = match label {
                Some(id) if open_end < close => {
                    let args: Vec<(String, String)> = tag
                        .split(' ')
                        .filter_map(|a| a.strip_prefix("data-arg-"))
                        .filter_map(|a| a.split_once('='))
                        .map(|(k, v)| {
                            (k.to_string(), v.trim_end_matches('>').trim_matches('"').to_string())
                        })
                        .collect();
                    let args: Vec<(&str, Arg<'_>)> = args
                        .iter()
                        .map(|(k, v)| {
                            (
                                k.as_str(),
                                v.parse::<i64>().map_or(Arg::Text(v.as_str()), Arg::Number),
                            )
                        })
                        .collect();
                    self.get(id, &args).map(|t| crate::pages::esc(&t))
                }
                _ => None,
            };
            match text {
                Some(t) => {
                    out.push_str(tag);
                    out.push_str(&t);
                    out.push_str("</text>");
                }
                None => out.push_str(&rest[..close + "</text>".len()]),
            }
            rest = &rest[close + "</text>".len()..];
        }
        out.push_str(rest);
        out
    }
}

/// The value of attribute `name` in a start tag.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

/// An argument of a message.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    Number(i64),
    Text(&'a str),
}

/// Every message a page of `game` needs in `lang`, in the JSON form the page formats (see the
/// module documentation). Messages of the game override the server's of the same id.
#[must_use]
pub fn client_messages(lang: Lang, game: Option<&str>) -> Value {
    let mut out = Map::new();
    for source in sources(lang, game) {
        let resource = match fluent_syntax::parser::parse(source) {
            Ok(r) => r,
            Err((r, _)) => r,
        };
        for entry in resource.body {
            if let ast::Entry::Message(m) = entry
                && let Some(value) = &m.value
            {
                out.insert(m.id.name.to_string(), parts(value));
            }
        }
    }
    Value::Object(out)
}

fn parts(pattern: &ast::Pattern<&str>) -> Value {
    let mut out: Vec<Value> = Vec::new();
    for element in &pattern.elements {
        let part = match element {
            ast::PatternElement::TextElement { value } => Value::from(*value),
            ast::PatternElement::Placeable { expression } => expression_part(expression),
        };
        // Neighbouring texts merge, so a plain message is a single string.
        match (out.last_mut(), &part) {
            (Some(Value::String(prev)), Value::String(next)) => prev.push_str(next),
            _ => out.push(part),
        }
    }
    Value::Array(out)
}

fn expression_part(expression: &ast::Expression<&str>) -> Value {
    match expression {
        ast::Expression::Inline(inline) => inline_part(inline),
        ast::Expression::Select { selector, variants } => {
            let name = match selector {
                ast::InlineExpression::VariableReference { id } => id.name.to_string(),
                _ => String::new(),
            };
            let mut keys = Map::new();
            let mut default = String::from("other");
            for v in variants {
                let key = match &v.key {
                    ast::VariantKey::Identifier { name } => (*name).to_string(),
                    ast::VariantKey::NumberLiteral { value } => format!("={value}"),
                };
                if v.default {
                    default.clone_from(&key);
                }
                keys.insert(key, parts(&v.value));
            }
            json!({ "s": name, "k": keys, "d": default })
        }
    }
}

fn inline_part(inline: &ast::InlineExpression<&str>) -> Value {
    match inline {
        ast::InlineExpression::VariableReference { id } => json!({ "v": id.name }),
        ast::InlineExpression::StringLiteral { value } => Value::from(*value),
        ast::InlineExpression::NumberLiteral { value } => Value::from(*value),
        ast::InlineExpression::Placeable { expression } => expression_part(expression),
        // Terms, functions and message references are not used in ply's messages.
        _ => Value::from(""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_follow_cldr_rules() {
        let ru = Messages::of(Lang::Ru, None);
        let turns = |n| ru.get("turns", &[("n", Arg::Number(n))]).unwrap();
        assert_eq!(turns(1), "1 ход");
        assert_eq!(turns(2), "2 хода");
        assert_eq!(turns(5), "5 ходов");
        assert_eq!(turns(21), "21 ход");
        let en = Messages::of(Lang::En, None);
        assert_eq!(en.get("turns", &[("n", Arg::Number(1))]).unwrap(), "1 turn");
        assert_eq!(en.get("turns", &[("n", Arg::Number(12))]).unwrap(), "12 turns");
    }

    #[test]
    fn every_resource_parses_whole_and_has_the_same_ids_in_every_language() {
        let mut games: Vec<Option<&str>> = vec![None];
        games.extend(ply_games::registry().entries().iter().map(|e| Some(e.name)));
        for game in games {
            let mut ids_by_lang = Vec::new();
            for lang in Lang::ALL {
                for source in sources(lang, game) {
                    if let Err((_, errors)) = fluent_syntax::parser::parse(source) {
                        panic!("{game:?} {lang:?}: {errors:?}");
                    }
                }
                let Value::Object(m) = client_messages(lang, game) else { unreachable!() };
                let mut ids: Vec<String> = m.keys().cloned().collect();
                ids.sort();
                ids_by_lang.push((lang, ids));
            }
            let (_, en) = &ids_by_lang[0];
            for (lang, ids) in &ids_by_lang[1..] {
                let missing: Vec<_> = en.iter().filter(|i| !ids.contains(i)).collect();
                assert!(missing.is_empty(), "{game:?}: {lang:?} lacks {missing:?}");
            }
        }
    }

    #[test]
    fn pictures_shown_without_the_script_get_their_labels_in_the_readers_language() {
        let ru = Messages::of(Lang::Ru, Some("boop"));
        let svg = "<svg><text x=\"1\" data-label=\"label-kittens\" data-arg-n=\"5\">5 kittens</text>\
                   <text x=\"2\">a</text><text data-label=\"no-such-label\">kept</text></svg>";
        let out = ru.localize_svg(svg);
        assert!(!out.contains("5 kittens"), "{out}");
        assert!(out.contains("<text x=\"2\">a</text>"), "{out}");
        assert!(out.contains(">kept</text>"), "{out}");
        assert!(out.starts_with("<svg>") && out.ends_with("</svg>"), "{out}");
    }

    #[test]
    fn the_client_form_keeps_selections_and_arguments() {
        let Value::Object(m) = client_messages(Lang::Ru, None) else { unreachable!() };
        let turns = &m["turns"];
        let select = &turns[0];
        assert_eq!(select["s"], "n");
        assert_eq!(select["d"], "other");
        assert_eq!(select["k"]["few"], json!([{ "v": "n" }, " хода"]));
    }
}
