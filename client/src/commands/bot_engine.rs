//! The outside engine of `turnpost bot run`: one process for the whole run, started on the
//! first move asked of it (and again after it crashed or was killed), spoken to over its
//! stdin/stdout in the line protocol below. The README's "Outside engines as players"
//! documents it.
//!
//! ```text
//! turnpost 1                        once, when the engine starts
//! game <id> <kind> <k=v,k=v|->      before each move asked: the game and its options
//! position <position text>          as `turnpost engine show` prints it
//! moves <move> <move> …             every legal move, so an engine need not know the rules
//! go <movetime-ms>                  answer within this time: `move <notation>`
//! quit                              the end (or the end of input, on Ctrl-C)
//! ```
//!
//! One process for the run, not one per game: a game line says which game each position is
//! of, an engine that keeps state per game can key it by the id, and starting an interpreter
//! for every move of every game would cost more than most moves. The engine is asked for one
//! move at a time.
//!
//! With `--protocol ccp` the engine speaks CCP instead, the protocol of the public CCERL
//! Chinese Checkers benchmark, so that its engines play unchanged (the board's cell ids:
//! `super::bot_ccp`):
//!
//! ```text
//! ccp                                            when it starts; it answers `ccpok` (or `id …`)
//! isready                                        then; it answers `readyok`
//! position cells <121 chars> player <0|1> ply <N>  before each move asked
//! go movetime <ms>                               answer: `bestmove 4-15-28` (or `bestmove 4-28`)
//! quit
//! ```

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use turnpost_shared::api::GameView;

use super::bot_ccp;

/// Time an engine gets on top of the movetime before it counts as not answering: a process
/// being started, a loaded machine.
pub const GRACE: Duration = Duration::from_secs(3);

/// How long `quit` waits for the engine to end by itself before killing it.
const QUIT_WAIT: Duration = Duration::from_secs(2);

/// The version of the line protocol, sent first as `turnpost 1`.
const PROTOCOL_VERSION: u32 = 1;

/// How long a CCP engine may take to answer `ccp` and `isready` when it starts (a network's
/// weights being loaded; the benchmark's referee waits 10 s by default too).
const CCP_HANDSHAKE: Duration = Duration::from_secs(10);

/// The language spoken with the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Protocol {
    /// turnpost's own line protocol (every game; the legal moves are sent).
    Turnpost,
    /// CCP, the Chinese Checkers Protocol of the CCERL benchmark (2-player Chinese Checkers).
    Ccp,
}

/// Why the engine gave no move.
#[derive(Debug)]
pub enum EngineTrouble {
    /// It could not be started.
    Start(String),
    /// It did not answer within the movetime and the grace; it was killed.
    Silent(Duration),
    /// It ended, or its pipes broke.
    Ended(String),
    /// Its answer is not a move it could have meant (a CCP cell off the board); it runs on.
    Answer(String),
    /// The position cannot be said in the engine's protocol.
    Position(String),
}

impl std::fmt::Display for EngineTrouble {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Start(error) => write!(f, "the engine could not be started: {error}"),
            Self::Silent(waited) => write!(
                f,
                "the engine gave no move within {} ms; it was stopped and starts again for the \
                 next move",
                waited.as_millis()
            ),
            Self::Ended(why) => write!(f, "the engine {why}; it starts again for the next move"),
            Self::Answer(why) | Self::Position(why) => write!(f, "{why}"),
        }
    }
}

/// A running engine process: its stdin, and its stdout's lines read on a thread of their own
/// (a blocking read cannot be given up at a deadline; a channel can).
struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// The outside engine of a run: the command, and its process while one runs.
pub struct Engine {
    command: String,
    protocol: Protocol,
    running: Option<Running>,
}

impl Engine {
    /// The engine run by the shell command line `command` (started when first asked), spoken
    /// to in `protocol`.
    pub fn new(command: &str, protocol: Protocol) -> Engine {
        Engine {
            command: command.to_string(),
            protocol,
            running: None,
        }
    }

    /// Asks the engine for a move in `game` (its turn), giving it `movetime`; the text it
    /// answered after `move ` (a CCP `bestmove` as turnpost move text).
    ///
    /// # Errors
    /// [`EngineTrouble`]: it could not be started, ended, or was killed for not answering in
    /// time (it is started again for the next move); a CCP answer that names no cells, or a
    /// position CCP cannot say.
    pub fn choose(
        &mut self,
        game: &GameView,
        legal: &[String],
        movetime: Duration,
    ) -> Result<String, EngineTrouble> {
        let (request, answer_word) = match self.protocol {
            Protocol::Turnpost => (request_lines(game, legal, movetime), "move "),
            Protocol::Ccp => (
                format!(
                    "{}\ngo movetime {}\n",
                    bot_ccp::position_line(game).map_err(EngineTrouble::Position)?,
                    movetime.as_millis()
                ),
                "bestmove ",
            ),
        };
        let running = match &mut self.running {
            Some(running) => running,
            None => self.running.insert(start(&self.command, self.protocol)?),
        };
        if let Err(error) = running
            .stdin
            .write_all(request.as_bytes())
            .and_then(|()| running.stdin.flush())
        {
            self.stop();
            return Err(EngineTrouble::Ended(format!(
                "does not read its input ({error})"
            )));
        }
        let limit = movetime + GRACE;
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match running.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    self.stop();
                    return Err(EngineTrouble::Silent(limit));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.stop();
                    return Err(EngineTrouble::Ended("ended".to_string()));
                }
            };
            // Anything else (`info …` for people, an answer to `turnpost 1`) is not a move.
            if let Some(notation) = line.trim().strip_prefix(answer_word) {
                let notation = notation.trim();
                if notation.is_empty() {
                    continue;
                }
                return match self.protocol {
                    Protocol::Turnpost => Ok(notation.to_string()),
                    Protocol::Ccp => bot_ccp::move_text(notation).map_err(EngineTrouble::Answer),
                };
            }
        }
    }

    /// Sends `quit` and lets the engine end (killed if it does not within 2 s).
    pub fn quit(&mut self) {
        if let Some(mut running) = self.running.take() {
            let _ = writeln!(running.stdin, "quit").and_then(|()| running.stdin.flush());
            drop(running.stdin);
            let deadline = Instant::now() + QUIT_WAIT;
            while Instant::now() < deadline {
                if matches!(running.child.try_wait(), Ok(Some(_))) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            kill(&mut running.child);
        }
    }

    /// Kills the engine process (it is started again when next asked).
    fn stop(&mut self) {
        if let Some(mut running) = self.running.take() {
            kill(&mut running.child);
        }
    }
}

/// Kills the engine with everything it started: the shell runs the command line in a process
/// group of its own (see [`start`]), and killing the shell alone would leave the program it
/// started running, thinking on for nobody.
fn kill(child: &mut Child) {
    #[cfg(unix)]
    {
        let group = format!("-{}", child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.quit();
    }
}

/// Starts the engine through the shell (so that `--engine "python3 engine.py --seed 3"`
/// works) and greets it (a CCP engine: until it said it is ready).
fn start(command: &str, protocol: Protocol) -> Result<Running, EngineTrouble> {
    let mut shell = shell(command);
    // A process group of its own, so that `kill` reaches what the shell started; Ctrl-C in a
    // terminal then reaches only the run, which ends the engine by closing its input.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut shell, 0);
    let mut child = shell
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        // What the engine says for people goes where the run's own messages go.
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|error| EngineTrouble::Start(format!("`{command}`: {error}")))?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        kill(&mut child);
        return Err(EngineTrouble::Start(format!("`{command}`: no pipes")));
    };
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    let mut running = Running {
        child,
        stdin,
        lines,
    };
    let greeted = match protocol {
        Protocol::Turnpost => writeln!(running.stdin, "turnpost {PROTOCOL_VERSION}")
            .map_err(|error| format!("`{command}` does not read its input: {error}")),
        Protocol::Ccp => ccp_handshake(&mut running)
            .map_err(|why| format!("`{command}` did not start as a CCP engine: {why}")),
    };
    if let Err(why) = greeted {
        kill(&mut running.child);
        return Err(EngineTrouble::Start(why));
    }
    Ok(running)
}

/// CCP's start: `ccp`, answered by `ccpok` (or the `id …`/`protocol …` lines some engines
/// send instead, as the benchmark's referee accepts), then `isready`, answered by `readyok`.
fn ccp_handshake(running: &mut Running) -> Result<(), String> {
    let deadline = Instant::now() + CCP_HANDSHAKE;
    for (say, answers) in [
        ("ccp", &["ccpok", "id ", "protocol "][..]),
        ("isready", &["readyok"][..]),
    ] {
        writeln!(running.stdin, "{say}")
            .and_then(|()| running.stdin.flush())
            .map_err(|error| format!("it does not read its input ({error})"))?;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match running.lines.recv_timeout(left) {
                Ok(line) if answers.iter().any(|answer| line.trim().starts_with(answer)) => break,
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "no `{}` to `{say}` within {} s",
                        answers.first().map_or("", |answer| answer.trim()),
                        CCP_HANDSHAKE.as_secs()
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("it ended before answering `{say}`"))
                }
            }
        }
    }
    Ok(())
}

#[cfg(unix)]
fn shell(command: &str) -> Command {
    let mut shell = Command::new("sh");
    shell.args(["-c", command]);
    shell
}

#[cfg(not(unix))]
fn shell(command: &str) -> Command {
    let mut shell = Command::new("cmd");
    shell.args(["/C", command]);
    shell
}

/// The lines that ask for a move in `game`: `game`, `position`, `moves`, `go`.
fn request_lines(game: &GameView, legal: &[String], movetime: Duration) -> String {
    let options = if game.options.is_empty() {
        "-".to_string()
    } else {
        game.options
            .iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    // One line each whatever the server sent: a line break would start another command.
    let flat = |text: &str| text.replace(['\r', '\n'], " ");
    format!(
        "game {} {} {}\nposition {}\nmoves {}\ngo {}\n",
        game.id,
        game.kind,
        flat(&options),
        flat(&game.position),
        flat(&legal.join(" ")),
        movetime.as_millis()
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used, clippy::unwrap_used, reason = "tests")]
    use super::*;

    fn game() -> GameView {
        serde_json::from_value(serde_json::json!({
            "id": 7, "kind": "kefren", "options": {}, "clock": null, "timeout": "auto",
            "deadline": null, "claimable": false, "seats": [], "status": "active",
            "result": null, "result_reason": null, "ply": 0, "to_move": 1, "your_seat": 1,
            "your_turn": true, "draw_offered_by": null,
            "position": "kefren wwwwwwwww/wwwwwwwww/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bbbbbbbbb/bbbbbbbbb b",
            "board": "", "last_moves": [], "legal_moves": ["A2-A3", "B2-B3"],
            "created_at": "2026-01-01T00:00:00Z", "expires_at": null, "started_at": null,
            "finished_at": null, "last_activity_at": "2026-01-01T00:00:00Z"
        }))
        .expect("a game view")
    }

    #[test]
    fn a_request_is_four_lines() {
        let mut game = game();
        let legal = vec!["A2-A3".to_string(), "B2-B3".to_string()];
        let text = request_lines(&game, &legal, Duration::from_millis(500));
        assert_eq!(
            text,
            "game 7 kefren -\nposition kefren wwwwwwwww/wwwwwwwww/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bbbbbbbbb/bbbbbbbbb b\nmoves A2-A3 B2-B3\ngo 500\n"
        );
        game.options.insert("lines".into(), "5".into());
        game.options.insert("total".into(), "die".into());
        game.position = "x\ny".into();
        let text = request_lines(&game, &legal, Duration::from_millis(1));
        assert!(text.starts_with("game 7 kefren lines=5,total=die\nposition x y\n"));
    }

    #[cfg(unix)]
    #[test]
    fn an_engine_answers_and_a_silent_one_is_stopped() {
        let game = game();
        let legal = vec!["A2-A3".to_string()];
        // Reads the greeting and the request, answers the last legal move.
        let mut engine = Engine::new(
            "while read -r word rest; do case $word in moves) set -- $rest; eval last=\\${$#}; \
             ;; go) echo \"info thinking\"; echo \"move $last\";; quit) exit 0;; esac; done",
            Protocol::Turnpost,
        );
        let answer = engine.choose(&game, &legal, Duration::from_millis(100));
        assert_eq!(answer.unwrap(), "A2-A3");
        // Asked again, the same process answers.
        let answer = engine.choose(&game, &legal, Duration::from_millis(100));
        assert_eq!(answer.unwrap(), "A2-A3");
        engine.quit();

        let mut silent = Engine::new("sleep 30", Protocol::Turnpost);
        let started = Instant::now();
        let trouble = silent
            .choose(&game, &legal, Duration::from_millis(10))
            .unwrap_err();
        assert!(matches!(trouble, EngineTrouble::Silent(_)), "{trouble}");
        assert!(started.elapsed() < GRACE + Duration::from_secs(2));
        assert!(silent.running.is_none());

        let mut gone = Engine::new("exit 0", Protocol::Turnpost);
        let trouble = gone
            .choose(&game, &legal, Duration::from_millis(10))
            .unwrap_err();
        // Gone before or after its greeting was written: either way no move, and no wait.
        assert!(!matches!(trouble, EngineTrouble::Silent(_)), "{trouble}");
    }

    #[cfg(unix)]
    #[test]
    fn a_ccp_engine_is_greeted_and_its_cells_come_back_as_holes() {
        let start = turnpost_shared::AnyGame::new(
            turnpost_shared::GameKind::ChineseCheckers,
            &turnpost_shared::Options::default(),
        )
        .unwrap();
        let mut game = game();
        game.kind = turnpost_shared::GameKind::ChineseCheckers;
        game.position = start.position_text();
        // Answers the handshake, and each `go` with the step from cell 6 to cell 14, once it
        // was told the CCP start position (player 0's pegs on cells 0-9).
        let mut engine = Engine::new(
            "while read -r word a b c d e; do case $word in ccp) echo 'id name sh'; echo ccpok;; \
             isready) echo readyok;; position) cells=$b;; go) case $cells in \
             0000000000.*1111111111) echo 'bestmove 6-14';; *) echo 'bestmove 0000';; esac;; \
             quit) exit 0;; esac; done",
            Protocol::Ccp,
        );
        let answer = engine.choose(&game, &[], Duration::from_millis(100));
        assert_eq!(answer.unwrap(), "N13-M13");
        // Not a position of two seats: no request at all, the engine runs on.
        game.position = "chinese-checkers 4/44/444/4444/x 1".into();
        let trouble = engine
            .choose(&game, &[], Duration::from_millis(100))
            .unwrap_err();
        assert!(matches!(trouble, EngineTrouble::Position(_)), "{trouble}");
        engine.quit();

        // An engine that never says `ccpok` does not start.
        let mut mute = Engine::new("cat > /dev/null", Protocol::Ccp);
        game.position = start.position_text();
        let began = Instant::now();
        let trouble = mute
            .choose(&game, &[], Duration::from_millis(10))
            .unwrap_err();
        assert!(
            trouble
                .to_string()
                .contains("did not start as a CCP engine: no `ccpok`"),
            "{trouble}"
        );
        assert!(began.elapsed() < CCP_HANDSHAKE + Duration::from_secs(2));
        assert!(mute.running.is_none());
    }
}
