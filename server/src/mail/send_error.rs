//! [`SendError`]: a failed delivery, as the transport and the SMTP relay both report it.

/// A failed delivery.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct SendError {
    /// Retrying cannot help (the relay refused the address at RCPT TO, or the stored mail
    /// cannot be built).
    pub permanent: bool,
    /// What happened, without secrets.
    pub message: String,
}
