//! `ply import`: boardspace.net ZÈRTZ records (`.sgf`) into ply records, or checked against
//! the rules with `--check`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use ply_core::{Outcome, Player};
use ply_records::boardspace::{self, Check, Claim, Conversion, Ending, Failure, Normalisation};
use ply_records::{GameResult, Record, RecordMove};

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// boardspace.net ZÈRTZ records (`SU[Zertz]`, `SU[Zertz+11]` = board 48,
    /// `SU[Zertz+24]` = board 61), or folders searched for them (`.sgf` files, recursively).
    #[arg(required = true, value_name = "FILE.sgf")]
    pub files: Vec<PathBuf>,
    /// Write each record as DIR/NAME.ply (default: print them to standard output).
    #[arg(short = 'o', long = "output", value_name = "DIR", conflicts_with = "check")]
    pub output: Option<PathBuf>,
    /// Replay every record through the rules instead: print one line per failed record
    /// (file, move, the move, the reason), per skipped record (with the reason) and per
    /// record read other than as written (`FILE: normalised: ...`, each way with its turn),
    /// then `N passed (K normalised), M failed, S skipped`. Exit status 1 if any failed.
    #[arg(long)]
    pub check: bool,
    /// Store the records in the archive of a database instead: finished games the app's
    /// archive page lists and opens, and the opening explorer counts (`ply explore`).
    /// DATABASE is as for `ply serve --database` (default: `PLY_DATABASE_URL`, else the file
    /// `ply serve` uses); FILES may be folders (searched for .sgf files). Importing a record
    /// again adds nothing. Prints what was added, skipped and failed (failures on standard
    /// error); exit status 1 if any failed.
    #[arg(
        long,
        value_name = "DATABASE",
        num_args = 0..=1,
        default_missing_value = "",
        conflicts_with_all = ["check", "output"]
    )]
    pub into: Option<String>,
}

/// What became of one file.
#[derive(Debug)]
pub enum Verdict {
    /// Read and replayed through the rules: the ply record, and every way the reading
    /// departed from the file as written (also written in the record's comment).
    Passed { record: Box<Record>, notes: Vec<Normalisation> },
    /// Not a game ply plays, with the reason.
    Skipped(String),
    /// Damaged or illegal, with the move and the reason.
    Failed(String),
}

/// How the game ended off the board, as a clause (`P2 resigned`).
fn ending_clause(ending: Ending) -> String {
    match ending {
        Ending::Resigned(p) => format!("{p} resigned"),
        Ending::OnTime(p) => format!("{p} claimed the win on time"),
        Ending::DrawAgreed => "the draw was agreed".into(),
    }
}

/// `turn 12` or `turns 12-14`.
fn turn_span(first: usize, count: usize) -> String {
    if count > 1 { format!("turns {first}-{}", first + count - 1) } else { format!("turn {first}") }
}

/// One normalisation in words: for `--check` and for the comment of the written record.
#[must_use]
pub fn describe(note: &Normalisation) -> String {
    match note {
        Normalisation::LaterGameTreesIgnored { count: 1 } => {
            "a second game tree (boardspace's copy with the editing history) ignored".into()
        }
        Normalisation::LaterGameTreesIgnored { count } => {
            format!(
                "{count} more game trees (boardspace's copies with the editing history) ignored"
            )
        }
        Normalisation::StartMarkerOverruled { marker_seat, first_seat } => format!(
            "'Start P{marker_seat}' overruled: the record's P{first_seat} made the first step and moves first"
        ),
        Normalisation::JumpTakenBack { turn, from, to } => {
            format!("a jump taken back (turn {turn}: {from} to {to})")
        }
        Normalisation::MarbleDragged { turn, from, to } => {
            format!("a placed marble dragged on (turn {turn}: {from} to {to})")
        }
        Normalisation::UnfinishedTurnDropped { turn, actions, before } => {
            let when = match before {
                Some(ending) => format!("before {}", ending_clause(*ending)),
                None => "at the end of the record".into(),
            };
            format!("an unfinished turn dropped {when} (turn {turn}: {actions})")
        }
        Normalisation::ActionsAfterEndingIgnored { ending, count, from_index, from_line } => {
            let actions = if *count == 1 { "1 action".into() } else { format!("{count} actions") };
            let from = match from_index {
                Some(index) => format!("move {index}"),
                None => format!("line {from_line}"),
            };
            format!("{actions} recorded after {} ignored (from {from})", ending_clause(*ending))
        }
        Normalisation::WinnerNameAmbiguous { result } => {
            format!("RE[{result}] fits both players' names: no winner is read from it")
        }
        Normalisation::CapturesAfterWinIgnored { winner, first_turn, moves } => {
            let captures = if moves.len() == 1 {
                "1 capture".into()
            } else {
                format!("{} captures", moves.len())
            };
            format!(
                "{captures} recorded after {winner} had won ignored ({}: {})",
                turn_span(*first_turn, moves.len()),
                moves.join(" ")
            )
        }
    }
}

/// Every normalisation of a record in words, in the order met, separated by `; `.
#[must_use]
pub fn describe_all(notes: &[Normalisation]) -> String {
    notes.iter().map(describe).collect::<Vec<_>>().join("; ")
}

fn result_token(outcome: Option<Outcome>, claim: Claim) -> GameResult {
    match (outcome, claim) {
        (Some(o), _) => GameResult::from_outcome(Some(o)),
        (None, Claim::Win(Player::P1)) => GameResult::P1Wins,
        (None, Claim::Win(Player::P2)) => GameResult::P2Wins,
        (None, Claim::Draw) => GameResult::Draw,
        (None, Claim::Unknown) => GameResult::Unknown,
    }
}

/// Reads one boardspace record, replays it through the rules and makes it a ply record.
#[must_use]
pub fn import_one(path: &Path, registry: &ply_core::Registry) -> Verdict {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return Verdict::Failed(format!("cannot read: {e}")),
    };
    // Old records are Latin-1 or other 8-bit encodings; only names can be affected.
    let text = String::from_utf8_lossy(&bytes);
    let game = match boardspace::convert(&text) {
        Ok(Conversion::Game(g)) => g,
        Ok(Conversion::Skipped(reason)) => return Verdict::Skipped(reason),
        Err(damaged) => {
            let failure = Failure {
                turn: 0,
                index: damaged.index,
                moves: if damaged.action.is_empty() {
                    String::new()
                } else {
                    format!("'{}' (line {})", damaged.action, damaged.line)
                },
                reason: if damaged.action.is_empty() {
                    format!("line {}: {}", damaged.line, damaged.reason)
                } else {
                    damaged.reason
                },
            };
            return Verdict::Failed(failure.to_string());
        }
    };
    let (outcome, played, notes) = match boardspace::check(&game, registry) {
        Check::Passed { outcome, turns, normalisations } => (outcome, turns, normalisations),
        Check::Skipped(reason) => return Verdict::Skipped(reason),
        Check::Failed(failure) => return Verdict::Failed(failure.to_string()),
    };
    let mut record = Record::new("zertz", game.variant);
    record.set_header("P1", &game.players[0]);
    record.set_header("P2", &game.players[1]);
    if let Some(date) = &game.date {
        record.set_header("Date", date);
    }
    record.set_header("Result", result_token(outcome, game.claim).token());
    record.set_header("Site", "boardspace.net");
    let source = game.name.clone().unwrap_or_else(|| {
        path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
    });
    record.set_header("Source", &source);
    if !notes.is_empty() {
        record.comment =
            Some(format!("normalised from the boardspace record: {}", describe_all(&notes)));
    }
    if outcome.is_none() {
        let how = match game.ending {
            Some((ending, _)) => ending.to_string(),
            None => match &game.result_text {
                Some(re) => format!("not finished on the board ({re})"),
                None => "not finished on the board".to_string(),
            },
        };
        record.set_header("Termination", &how);
    }
    record.moves = game.turns[..played].iter().map(|t| RecordMove::new(t.token.clone())).collect();
    Verdict::Passed { record: Box::new(record), notes }
}

pub fn run(args: &ImportArgs) -> anyhow::Result<ExitCode> {
    if let Some(into) = &args.into {
        // `--into a.sgf b.sgf`: the first file is not a database.
        let mut files = args.files.clone();
        let database = if into.is_empty() || crate::library::looks_like_database(into) {
            into.as_str()
        } else {
            files.insert(0, PathBuf::from(into));
            ""
        };
        return crate::library::import_into(Some(database), &files);
    }
    let registry = ply_games::registry();
    let mut out = std::io::stdout().lock();
    let (mut passed, mut normalised, mut failed, mut skipped) = (0usize, 0usize, 0usize, 0usize);
    if let Some(dir) = &args.output {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut first = true;
    for path in &crate::library::record_files(&args.files)? {
        let name = path.display();
        match import_one(path, &registry) {
            Verdict::Passed { record, notes } => {
                passed += 1;
                if !notes.is_empty() {
                    normalised += 1;
                }
                if args.check {
                    if !notes.is_empty() {
                        writeln!(out, "{name}: normalised: {}", describe_all(&notes))?;
                    }
                    continue;
                }
                match &args.output {
                    Some(dir) => {
                        let stem = path.file_stem().map_or_else(
                            || "record".to_string(),
                            |s| s.to_string_lossy().into_owned(),
                        );
                        let target = dir.join(format!("{stem}.ply"));
                        std::fs::write(&target, record.to_string())
                            .with_context(|| format!("cannot write {}", target.display()))?;
                    }
                    None => {
                        if !first {
                            writeln!(out)?;
                        }
                        write!(out, "{record}")?;
                    }
                }
                first = false;
            }
            Verdict::Skipped(reason) => {
                skipped += 1;
                if args.check {
                    writeln!(out, "{name}: skipped: {reason}")?;
                } else {
                    eprintln!("{name}: skipped: {reason}");
                }
            }
            Verdict::Failed(reason) => {
                failed += 1;
                if args.check {
                    writeln!(out, "{name}: {reason}")?;
                } else {
                    eprintln!("{name}: {reason}");
                }
            }
        }
    }
    let summary =
        format!("{passed} passed ({normalised} normalised), {failed} failed, {skipped} skipped");
    if args.check {
        writeln!(out, "{summary}")?;
    } else {
        eprintln!("{summary}");
    }
    Ok(if failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
