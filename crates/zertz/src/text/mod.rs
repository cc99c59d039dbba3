//! The game's texts in English, Korean and Russian (the order of [`ply_core::LANGUAGES`]),
//! as Fluent resources: `*.ftl` holds the name, the variant names, the labels the pictures
//! draw, the help of each click and the reasons for a win ([`ply_core::View::texts`]);
//! `rules.*.ftl` the short rules for the rules page ([`ply_core::View::rules`]).

/// Names, labels, click help and end reasons.
pub(crate) const TEXTS: [&str; 3] =
    [include_str!("en.ftl"), include_str!("ko.ftl"), include_str!("ru.ftl")];

/// The short rules: a summary and sections of points.
pub(crate) const RULES: [&str; 3] =
    [include_str!("rules.en.ftl"), include_str!("rules.ko.ftl"), include_str!("rules.ru.ftl")];
