//! Ctrl-C as the ordinary end of a command that runs until stopped (`turnpost watch`): exit 0,
//! after the line being written, instead of the shell's "killed by SIGINT" (130).

use std::io::Write as _;

/// From now on, Ctrl-C (SIGINT) ends the process with exit 0 once the output line being
/// written is complete. Without a way to listen (no signal support), Ctrl-C keeps its usual
/// effect.
pub fn exit_quietly_on_interrupt() {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return;
    };
    // Listening starts here, before returning, so a Ctrl-C a moment later is not missed.
    let listening = {
        let _entered = runtime.enter();
        listen()
    };
    let Some(interrupted) = listening else {
        return;
    };
    std::thread::spawn(move || {
        if runtime.block_on(interrupted) {
            // Taking the lock waits for a line being printed; then nothing else prints.
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.flush();
            std::process::exit(0);
        }
    });
}

/// A future that completes with `true` on the first SIGINT; `None` when the signal cannot be
/// listened to.
#[cfg(unix)]
fn listen() -> Option<impl std::future::Future<Output = bool>> {
    let mut signal =
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()).ok()?;
    Some(async move { signal.recv().await.is_some() })
}

#[cfg(not(unix))]
fn listen() -> Option<impl std::future::Future<Output = bool>> {
    Some(async { tokio::signal::ctrl_c().await.is_ok() })
}
