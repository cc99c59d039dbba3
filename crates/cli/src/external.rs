//! A match player in another program: `ply match --a-engine CMD` (or `--b-engine`) runs CMD
//! and has it choose that side's turns through ply's engine protocol
//! (`docs/engine-protocol.md`), as tournament managers drive UCI engines. So another build of
//! ply (`ply-old engine`) can play this one at equal time, or a bot that speaks the protocol
//! can play ply's levels.
//!
//! One process a game: the game's turns are sent to it with `play` as they are made (its echo
//! of the position string must match), and on its turns it is asked `go` with the side's
//! limits. Any `err`, a mismatch, a silent or dead engine fails that game, named in the
//! match's failures; a program that cannot start or does not know the game fails the match
//! before any game.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How long any reply but a search's may take.
const REPLY_TIME: Duration = Duration::from_secs(20);
/// How much longer than its time limit a timed search's reply may take.
const TIME_GRACE: Duration = Duration::from_secs(10);

/// What an external side is told: its options once, then each turn's `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ExternalPlayer {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// `setoption` lines sent after `newgame` (level, threads, weights).
    pub options: Vec<String>,
    /// The limits of `go` (`movetime 300`), empty for a level.
    pub go: String,
    /// How long a `go` may take: `None` for searches bounded by nodes or depth.
    pub search_time: Option<Duration>,
}

impl ExternalPlayer {
    /// The external side for player `spec` (`time:MS`, `nodes:N`, `depth:N` or `level:N`,
    /// with `/tN` threads) and weights `weights`, run by `command` (words separated by
    /// spaces).
    pub(crate) fn new(
        command: &str,
        spec: &str,
        weights: Option<&str>,
    ) -> Result<ExternalPlayer, String> {
        let command: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        if command.is_empty() {
            return Err("an engine command is empty".into());
        }
        let refuse = || {
            format!(
                "'{spec}' cannot be played by an external engine: it plays time:MS, nodes:N, \
                 depth:N or level:N, with /tN threads"
            )
        };
        let (body, threads) = match spec.rsplit_once("/t") {
            Some((body, n)) => (body, Some(n.parse::<u32>().map_err(|_| refuse())?)),
            None => (spec, None),
        };
        let (kind, n) = body.split_once(':').ok_or_else(refuse)?;
        let n: u64 = n.parse().map_err(|_| refuse())?;
        let mut options = Vec::new();
        let (go, search_time) = match kind {
            "time" => {
                (format!("movetime {n}"), Some(Duration::from_millis(n).saturating_add(TIME_GRACE)))
            }
            "nodes" => (format!("nodes {n}"), None),
            "depth" => (format!("depth {n}"), None),
            "level" => {
                options.push(format!("setoption level {n}"));
                // Level 10 thinks about a second.
                (String::new(), Some(Duration::from_secs(1).saturating_add(TIME_GRACE)))
            }
            _ => return Err(refuse()),
        };
        if let Some(t) = threads {
            options.push(format!("setoption threads {t}"));
        }
        if let Some(w) = weights {
            options.push(format!("setoption weights {w}"));
        }
        Ok(ExternalPlayer { command, options, go, search_time })
    }

    /// Starts the program on a new game of `game` and `variant`, with the side's options.
    pub(crate) fn start(&self, game: &str, variant: &str) -> Result<Connection, String> {
        let mut c = Connection::spawn(&self.command)?;
        c.ask(&format!("newgame {game} {variant}"), Some(REPLY_TIME))?;
        for o in &self.options {
            c.ask(o, Some(REPLY_TIME))?;
        }
        Ok(c)
    }
}

/// A running engine program.
pub(crate) struct Connection {
    name: String,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Connection {
    fn spawn(command: &[String]) -> Result<Connection, String> {
        let name = command.join(" ");
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{name}': {e}"))?;
        let input = child.stdin.take().expect("piped");
        let output = child.stdout.take().expect("piped");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut c = Connection { name, child, input, lines };
        // The engine greets with its info block and `ok`.
        c.reply(Some(REPLY_TIME)).map_err(|e| format!("{e} (at start)"))?;
        Ok(c)
    }

    /// The lines up to `ok`, within `timeout` (`None`: no limit).
    fn reply(&mut self, timeout: Option<Duration>) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        loop {
            let line = match timeout {
                Some(t) => self.lines.recv_timeout(t).map_err(|e| match e {
                    RecvTimeoutError::Timeout => {
                        format!("'{}' did not answer within {} s", self.name, t.as_secs())
                    }
                    RecvTimeoutError::Disconnected => format!("'{}' ended", self.name),
                }),
                None => self.lines.recv().map_err(|_| format!("'{}' ended", self.name)),
            }?;
            if line == "ok" {
                return Ok(out);
            }
            out.push(line);
        }
    }

    /// Sends `command` and reads its reply; an `err` line fails it.
    pub(crate) fn ask(
        &mut self,
        command: &str,
        timeout: Option<Duration>,
    ) -> Result<Vec<String>, String> {
        writeln!(self.input, "{command}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("cannot write to '{}': {e}", self.name))?;
        let reply = self.reply(timeout)?;
        if let Some(err) = reply.iter().find(|l| l.starts_with("err")) {
            return Err(format!("'{}' answered '{command}' with '{err}'", self.name));
        }
        Ok(reply)
    }

    /// Plays `turn`; the engine's position string must be `expected`.
    pub(crate) fn play(&mut self, turn: &str, expected: &str) -> Result<(), String> {
        let reply = self.ask(&format!("play {turn}"), Some(REPLY_TIME))?;
        if reply.last().map(String::as_str) != Some(expected) {
            return Err(format!(
                "'{}' is out of step after {turn}: it has {:?}, the match {expected}",
                self.name,
                reply.last()
            ));
        }
        Ok(())
    }

    /// The turn the engine chooses for `player`, with seed `seed`.
    pub(crate) fn choose(&mut self, player: &ExternalPlayer, seed: u64) -> Result<String, String> {
        self.ask(&format!("setoption seed {seed}"), Some(REPLY_TIME))?;
        let go = if player.go.is_empty() { "go".to_string() } else { format!("go {}", player.go) };
        let reply = self.ask(&go, player.search_time)?;
        reply
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .map(str::to_string)
            .ok_or_else(|| format!("'{}' answered '{go}' without a bestmove", self.name))
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        // A well-behaved engine exits at `quit`; one that does not is ended.
        for _ in 0..50 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_becomes_options_and_go_limits() {
        let p = ExternalPlayer::new("ply-old engine", "time:300", None).unwrap();
        assert_eq!(p.command, ["ply-old", "engine"]);
        assert_eq!((p.go.as_str(), p.options.len()), ("movetime 300", 0));
        assert_eq!(p.search_time, Some(Duration::from_millis(10_300)));
        let p = ExternalPlayer::new("e", "level:4/t2", Some("w.txt")).unwrap();
        assert_eq!(
            p.options,
            ["setoption level 4", "setoption threads 2", "setoption weights w.txt"]
        );
        assert_eq!(p.go, "");
        let p = ExternalPlayer::new("e", "nodes:5000", None).unwrap();
        assert_eq!((p.go.as_str(), p.search_time), ("nodes 5000", None));
        for bad in ["random", "baseline:3", "material:100", "time:100@mcts", "nodes:1000~0.3", "x"]
        {
            let e = ExternalPlayer::new("e", bad, None).unwrap_err();
            assert!(e.contains("cannot be played by an external engine"), "{bad}: {e}");
        }
        assert!(ExternalPlayer::new(" ", "time:1", None).is_err());
    }
}
