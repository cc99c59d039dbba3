//! `ply match --round-robin`: every pair of a list of players plays the same number of games,
//! and one Elo scale is fitted to all of them (maximum likelihood, as BayesElo and Ordo do),
//! so a ladder of levels is measured as a whole rather than pair by pair.

use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use ply_search::EngineEntry;

use crate::computer::{Contestant, MatchArgs, games_bar, locked, parse_spec, play_games, play_one};
use crate::position::UsageError;

/// The players of `--round-robin`: a comma-separated list of specs, or `levels` for
/// `level:1` to `level:10`.
fn players(list: &str) -> Vec<String> {
    if list.trim() == "levels" {
        (1..=10).map(|l| format!("level:{l}")).collect()
    } else {
        list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
    }
}

/// The games played between two players: points (a win 1, a draw ½) of the first, games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pairing {
    pub points: f64,
    pub games: f64,
}

/// An Elo scale fitted to the results of a round robin.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Each player's rating, the first player at 0.
    pub elo: Vec<f64>,
    /// The covariance of the ratings (the first player's row and column are 0).
    pub covariance: Vec<Vec<f64>>,
}

impl Ratings {
    /// The 95 % interval of `elo[i] - elo[j]`.
    #[must_use]
    pub fn difference(&self, i: usize, j: usize) -> (f64, f64, f64) {
        let d = self.elo[i] - self.elo[j];
        let c = &self.covariance;
        let var = (c[i][i] + c[j][j] - 2.0 * c[i][j]).max(0.0);
        let half = 1.96 * var.sqrt();
        (d, d - half, d + half)
    }
}

/// Elo per point of logistic scale: P(i beats j) = 1 / (1 + 10^((r_j - r_i) / 400)).
const K: f64 = std::f64::consts::LN_10 / 400.0;

/// The maximum-likelihood Elo ratings of `n` players from `results[i][j]` (i's games
/// against j; both `[i][j]` and `[j][i]` are read, so give each pairing once or twice
/// consistently). Every pairing that played also counts one virtual draw, a weak prior
/// that keeps a 100 % score finite (as BayesElo's prior does). Newton's method on the
/// log-likelihood; the covariance is the inverse of its curvature.
#[must_use]
pub fn fit(results: &[Vec<Pairing>]) -> Ratings {
    let n = results.len();
    // Points and games of i against j, whichever way round they were recorded.
    let mut points = vec![vec![0.0; n]; n];
    let mut games = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let p = results[i][j];
            points[i][j] += p.points;
            points[j][i] += p.games - p.points;
            games[i][j] += p.games;
            games[j][i] += p.games;
        }
    }
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                points[i][j] += 0.5;
                games[i][j] += 1.0;
            }
        }
    }
    let mut elo = vec![0.0; n];
    let mut covariance = vec![vec![0.0; n]; n];
    if n < 2 {
        return Ratings { elo, covariance };
    }
    let expected = |elo: &[f64], i: usize, j: usize| 1.0 / (1.0 + (K * (elo[j] - elo[i])).exp());
    // The first player is the anchor; the others are the unknowns 1..n.
    let m = n - 1;
    let mut information = vec![vec![0.0; m]; m];
    for _ in 0..100 {
        let mut gradient = vec![0.0; m];
        information = vec![vec![0.0; m]; m];
        for i in 0..n {
            for j in 0..n {
                if i == j || games[i][j] == 0.0 {
                    continue;
                }
                let p = expected(&elo, i, j);
                let w = K * K * games[i][j] * p * (1.0 - p);
                if i > 0 {
                    gradient[i - 1] += K * (points[i][j] - games[i][j] * p);
                    information[i - 1][i - 1] += w;
                    if j > 0 {
                        information[i - 1][j - 1] -= w;
                    }
                }
            }
        }
        let Some(step) = solve(&information, &gradient) else { break };
        let mut largest: f64 = 0.0;
        for i in 0..m {
            // Damped: no rating moves more than 400 in one step.
            let s = step[i].clamp(-400.0, 400.0);
            elo[i + 1] += s;
            largest = largest.max(s.abs());
        }
        if largest < 1e-6 {
            break;
        }
    }
    if let Some(inverse) = invert(&information) {
        for i in 0..m {
            for j in 0..m {
                covariance[i + 1][j + 1] = inverse[i][j];
            }
        }
    }
    Ratings { elo, covariance }
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` if `a` is singular
/// (a player with no games, or two groups that never met).
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> =
        a.iter().zip(b).map(|(row, &v)| row.iter().copied().chain([v]).collect()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (x, &p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut columns = Vec::with_capacity(n);
    for c in 0..n {
        let unit: Vec<f64> = (0..n).map(|i| if i == c { 1.0 } else { 0.0 }).collect();
        columns.push(solve(a, &unit)?);
    }
    Some((0..n).map(|i| (0..n).map(|j| columns[j][i]).collect()).collect())
}

fn signed(x: f64) -> String {
    format!("{x:+.0}")
}

/// Runs `--round-robin`: see [`MatchArgs::round_robin`].
pub fn run(
    args: &MatchArgs,
    list: &str,
    entry: &EngineEntry,
    variant: &str,
) -> anyhow::Result<ExitCode> {
    let names = players(list);
    if names.len() < 2 {
        bail!(UsageError(format!(
            "--round-robin needs at least two players, comma-separated (or 'levels'); got '{list}'"
        )));
    }
    let contestants: Vec<Contestant> =
        names.iter().map(|s| parse_spec(s, entry)).collect::<Result<_, _>>().map_err(UsageError)?;
    if args.games == 0 {
        bail!(UsageError("--games must be at least 1".into()));
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let n = names.len();
    let pairs: Vec<(usize, usize)> = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect();
    // Game g of every pairing before game g + 1 of any, so a run cut short is balanced.
    let jobs: Vec<(usize, usize)> =
        (0..args.games).flat_map(|g| (0..pairs.len()).map(move |p| (p, g))).collect();
    let bar = games_bar(jobs.len());
    bar.set_message(format!("{n} players"));
    let results = Mutex::new(vec![vec![Pairing::default(); n]; n]);
    let thinking = Mutex::new(vec![(Duration::ZERO, 0usize); n]);
    let start = Instant::now();
    let failures = play_games(
        jobs.len(),
        args.threads,
        args.out.as_deref(),
        &bar,
        |k| {
            let (p, g) = jobs[k];
            let (i, j) = pairs[p];
            play_one(entry, variant, args, &contestants[i], &contestants[j], &[None, None], g)
                .map(|done| (format!("{}-{}-{}-{:04}.ply", entry.name, i + 1, j + 1, g + 1), done))
                .map_err(|e| format!("{} vs {}, game {}: {e:#}", names[i], names[j], g + 1))
        },
        |k, done| {
            let (i, j) = pairs[jobs[k].0];
            {
                let mut r = locked(&results);
                r[i][j].points += done.a_score;
                r[i][j].games += 1.0;
            }
            let mut t = locked(&thinking);
            for (side, player) in [(0, i), (1, j)] {
                t[player].0 += done.think[side].0;
                t[player].1 += done.think[side].1;
            }
        },
    );
    let results = results.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    let thinking = thinking.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    let played: f64 = results.iter().flatten().map(|p| p.games).sum();
    if played == 0.0 {
        bail!("no game finished");
    }
    let text = report(entry.name, variant, &names, &results, &thinking, played, start.elapsed());
    std::io::stdout().lock().write_all(text.as_bytes())?;
    if let Some(dir) = &args.out {
        let path = dir.join("round-robin.txt");
        std::fs::write(&path, &text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(if failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The crosstable and the fitted Elo table, as printed and saved.
fn report(
    game: &str,
    variant: &str,
    names: &[String],
    results: &[Vec<Pairing>],
    thinking: &[(Duration, usize)],
    played: f64,
    took: Duration,
) -> String {
    let n = names.len();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{game} {variant}: round robin of {n} players, {played} games in {:.1} s",
        took.as_secs_f64()
    );
    let _ =
        writeln!(out, "\npoints of the row player against the column player (of games played):");
    let width = names.iter().map(String::len).max().unwrap_or(0).max(6);
    let mut head = format!("{:>3} {:<width$}", "", "");
    for j in 0..n {
        let _ = write!(head, " {:>9}", j + 1);
    }
    let _ = writeln!(out, "{}", head.trim_end());
    for (i, name) in names.iter().enumerate() {
        let mut row = format!("{:>3} {name:<width$}", i + 1);
        for (j, pairing) in results[i].iter().enumerate() {
            let cell = if i == j {
                "-".to_string()
            } else {
                // Each pairing is stored once, under the player listed first.
                let (points, games) = if i < j {
                    (pairing.points, pairing.games)
                } else {
                    (results[j][i].games - results[j][i].points, results[j][i].games)
                };
                format!("{points}/{games}")
            };
            let _ = write!(row, " {cell:>9}");
        }
        let _ = writeln!(out, "{row}");
    }
    let ratings = fit(results);
    let _ = writeln!(
        out,
        "\nElo by maximum likelihood over all games, {} = 0 (one virtual draw a pairing as prior);\n95 % intervals:",
        names[0]
    );
    let _ = writeln!(
        out,
        "{:>3} {:<width$} {:>6} {:>15} {:>22} {:>10}",
        "", "player", "Elo", "interval", "above the one before", "time/move"
    );
    for i in 0..n {
        let interval = if i == 0 {
            "-".to_string()
        } else {
            let (_, lo, hi) = ratings.difference(i, 0);
            format!("{}..{}", signed(lo), signed(hi))
        };
        let step = if i == 0 {
            "-".to_string()
        } else {
            let (d, lo, hi) = ratings.difference(i, i - 1);
            format!("{} ({}..{})", signed(d), signed(lo), signed(hi))
        };
        let (time, moves) = thinking[i];
        let per_move = if moves == 0 {
            "-".to_string()
        } else {
            format!("{:.0} ms", time.as_secs_f64() * 1000.0 / moves as f64)
        };
        let _ = writeln!(
            out,
            "{:>3} {:<width$} {:>6} {:>15} {:>22} {:>10}",
            i + 1,
            names[i],
            signed(ratings.elo[i]),
            interval,
            step,
            per_move
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(n: usize, entries: &[(usize, usize, f64, f64)]) -> Vec<Vec<Pairing>> {
        let mut t = vec![vec![Pairing::default(); n]; n];
        for &(i, j, points, games) in entries {
            t[i][j] = Pairing { points, games };
        }
        t
    }

    #[test]
    fn two_players_get_the_logistic_difference_of_their_score() {
        // 76 % over 1000 games (plus the virtual draw) is about +200.
        let r = fit(&table(2, &[(1, 0, 760.0, 1000.0)]));
        let want = -400.0 * (1.0f64 / (760.5 / 1001.0) - 1.0).log10();
        assert!((r.elo[1] - want).abs() < 0.01, "{} vs {want}", r.elo[1]);
        let (_, lo, hi) = r.difference(1, 0);
        assert!(lo > 170.0 && hi < 230.0, "{lo}..{hi}");
    }

    #[test]
    fn a_chain_of_even_steps_is_recovered_and_perfect_scores_stay_finite() {
        // Three players 100 apart (exact expected scores over 10,000 games each pairing).
        let p = |d: f64| 10_000.0 / (1.0 + 10f64.powf(-d / 400.0));
        let r = fit(&table(
            3,
            &[(1, 0, p(100.0), 10_000.0), (2, 1, p(100.0), 10_000.0), (2, 0, p(200.0), 10_000.0)],
        ));
        assert!((r.elo[1] - 100.0).abs() < 1.0 && (r.elo[2] - 200.0).abs() < 1.0, "{:?}", r.elo);
        let r = fit(&table(2, &[(0, 1, 20.0, 20.0)]));
        assert!(r.elo[1].is_finite() && r.elo[1] < -300.0, "{:?}", r.elo);
    }

    #[test]
    fn the_level_list() {
        assert_eq!(players("levels").len(), 10);
        assert_eq!(players("level:1, random,"), ["level:1", "random"]);
    }
}
