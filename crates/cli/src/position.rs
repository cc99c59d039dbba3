//! The position a command works on: a game, a variant, a record, and turns played from there.

use std::fmt;
use std::path::PathBuf;

use clap::Args;
use ply_core::AnyGame;
use ply_records::Record;

/// Where a command's position comes from.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The game: boop, gipf, zertz or punct (`ply games` lists them).
    pub game: String,
    /// The variant (default: the game's default variant).
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// Turns to play from the start (after the record's, if one is given, or from
    /// `--position`), separated by spaces, e.g. "Kc3 Kd4". Abbreviations the notation allows
    /// are accepted.
    #[arg(long, short = 'm', value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Start from this position string instead of the start of the game
    /// (docs/position-strings.md; `ply show GAME --format position` prints one). Quote it:
    /// it contains `;`.
    #[arg(long, short = 'p', value_name = "STRING", allow_hyphen_values = true)]
    pub position: Option<String>,
}

/// The game at `text`, a position string of `game` (and of `variant`, if one is asked for).
///
/// # Errors
/// A [`UsageError`] saying what is wrong with the string.
pub fn from_position(
    game: &str,
    variant: Option<&str>,
    text: &str,
) -> Result<Box<dyn AnyGame>, UsageError> {
    let registry = ply_games::registry();
    let entry = registry.get(game).map_err(|e| UsageError(e.to_string()))?;
    let parsed =
        entry.from_position(text).map_err(|e| UsageError(format!("bad position string: {e}")))?;
    if let Some(v) = variant
        && v != parsed.variant()
    {
        return Err(UsageError(format!(
            "the position string is of variant {}, not {v}",
            parsed.variant()
        )));
    }
    Ok(parsed)
}

/// A failure that the command line reports with exit status 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Builds the position: the game's start, then the record's turns, then `--moves`.
pub fn build(
    args: &PositionArgs,
    record: Option<&PathBuf>,
) -> Result<Box<dyn AnyGame>, UsageError> {
    let registry = ply_games::registry();
    let entry = registry.get(&args.game).map_err(|e| UsageError(e.to_string()))?;
    let mut game = match (record, &args.position) {
        (Some(_), Some(_)) => {
            return Err(UsageError("give --record or --position, not both".into()));
        }
        (None, Some(text)) => from_position(&args.game, args.variant.as_deref(), text)?,
        (None, None) => {
            entry.new_game(args.variant.as_deref()).map_err(|e| UsageError(e.to_string()))?
        }
        (Some(path), None) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
            let record =
                Record::parse(&text).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
            if let Some(g) = record.header("Game")
                && g != entry.name
            {
                return Err(UsageError(format!(
                    "{} is a record of {g}, not of {}",
                    path.display(),
                    entry.name
                )));
            }
            if let (Some(v), Some(asked)) = (record.header("Variant"), args.variant.as_deref())
                && v != asked
            {
                return Err(UsageError(format!(
                    "{} is a record of variant {v}, not {asked}",
                    path.display()
                )));
            }
            let mut record = record;
            if record.header("Game").is_none() {
                record.set_header("Game", entry.name);
            }
            if record.header("Variant").is_none()
                && let Some(v) = &args.variant
            {
                record.set_header("Variant", v);
            }
            record.replay(&registry).map_err(|e| UsageError(format!("{}: {e}", path.display())))?
        }
    };
    if let Some(moves) = &args.moves {
        for (i, text) in moves.split_whitespace().enumerate() {
            let number = game.history().len() + 1;
            let _ = i;
            game.play(text).map_err(|e| UsageError(format!("move {number} '{text}': {e}")))?;
        }
    }
    Ok(game)
}
