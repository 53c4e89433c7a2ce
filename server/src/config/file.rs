//! The configuration file, and where each setting's value came from.
//!
//! Every setting that has an environment variable is also a key of the TOML file, named after
//! its field (`--public-url`, `TURNPOST_PUBLIC_URL` → `public_url`): the table of keys is read
//! from the command line's own definition, so a new setting is a key with no more code. The
//! file's values are checked with the flags' own parsers and become the flags' defaults, so
//! the order is clap's: command line, then environment, then file, then built-in default.

use std::any::TypeId;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::parser::ValueSource;
use clap::Parser;

/// The file read when neither `--config` nor `TURNPOST_CONFIG` names one, if it exists.
pub const DEFAULT_CONFIG_FILE: &str = "/etc/turnpost/turnpost.toml";

/// The field of `--config` (the file names itself nowhere, so it is no key).
const CONFIG_FILE_FIELD: &str = "config_file";

/// Where a setting's value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Built in.
    Default,
    /// The configuration file.
    File,
    /// An environment variable.
    Environment,
    /// A command-line flag.
    CommandLine,
}

impl Origin {
    /// `default`, `file`, `environment` or `command line`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Default => "default",
            Self::File => "file",
            Self::Environment => "environment",
            Self::CommandLine => "command line",
        }
    }
}

/// What a key's value is in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// `true` or `false`.
    Boolean,
    /// A whole number.
    Number,
    /// A string.
    Text,
}

/// One setting as the process runs with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// Its key in the file (`public_url`).
    pub key: String,
    /// Its environment variable (`TURNPOST_PUBLIC_URL`).
    pub env: String,
    /// What its value is.
    pub kind: ValueKind,
    /// Whether its value may hold a password (shown with the password masked).
    pub secret: bool,
    /// Its value as text (`true`, `30`, `imaps://…`); `None` when not set.
    pub value: Option<String>,
    /// Where the value came from.
    pub origin: Origin,
}

/// The command line and configuration as read at start.
#[derive(Debug)]
pub struct CommandLine<P> {
    /// The parsed command line, its settings merged from every source.
    pub cli: P,
    /// The configuration file read, if any.
    pub file: Option<PathBuf>,
    /// Every setting, in the order of `--help`.
    pub settings: Vec<Setting>,
}

/// Why the configuration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A command-line (or environment) value clap refused, or `--help`/`--version`.
    #[error(transparent)]
    Usage(#[from] clap::Error),
    /// A setting's value from the environment or the command line refused by its parser.
    #[error("setting `{key}` ({env}): invalid value `{value}`{why}")]
    BadSetting {
        /// The key.
        key: String,
        /// Its environment variable.
        env: String,
        /// The value refused.
        value: String,
        /// Why, with a leading `: ` (empty when the parser gives no reason).
        why: String,
    },
    /// The file cannot be read.
    #[error("cannot read the configuration file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not TOML.
    #[error("the configuration file {} is not valid TOML: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// The parser's message, with line and column.
        message: String,
    },
    /// A key that names no setting.
    #[error("the configuration file {}: unknown key `{key}` (known keys: {known})", path.display())]
    UnknownKey {
        /// The file.
        path: PathBuf,
        /// The key.
        key: String,
        /// Every key, comma-separated.
        known: String,
    },
    /// A value of the wrong type or out of range.
    #[error("the configuration file {}: key `{key}`: expected {expected}, got {got}", path.display())]
    BadValue {
        /// The file.
        path: PathBuf,
        /// The key.
        key: String,
        /// What the key takes.
        expected: String,
        /// The value found (and why it was refused).
        got: String,
    },
}

/// Reads the command line `args` (program name first), the environment and the configuration
/// file (`--config`, `TURNPOST_CONFIG`, else [`DEFAULT_CONFIG_FILE`] when it exists).
///
/// # Errors
/// [`LoadError::Usage`] for what clap refuses (print it with `exit()`); the other variants name
/// the file, the key and what was expected.
pub fn load<P, I, T>(args: I) -> Result<CommandLine<P>, LoadError>
where
    P: Parser,
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let mut command = P::command();
    let first = command
        .clone()
        .try_get_matches_from(&args)
        .map_err(|error| bad_setting(&command, error))?;
    let file = match first.get_one::<PathBuf>(CONFIG_FILE_FIELD) {
        Some(path) => Some(path.clone()),
        None => Some(PathBuf::from(DEFAULT_CONFIG_FILE)).filter(|path| path.exists()),
    };
    let keys = keys(&command);
    let mut table = toml::Table::new();
    if let Some(path) = &file {
        table = read_table(path)?;
        command = with_file_defaults(command, path, &table, &keys)?;
    }
    let matches = command
        .clone()
        .try_get_matches_from(&args)
        .map_err(|error| bad_setting(&command, error))?;
    let cli = P::from_arg_matches(&matches)?;
    // In the order of `--help` (a flag given a default from the file moved to the end).
    let settings = keys
        .iter()
        .filter_map(|(key, kind)| {
            let key = key.as_str();
            let arg = command.get_arguments().find(|arg| arg.get_id() == key)?;
            let value = match kind {
                ValueKind::Boolean => matches.get_one::<bool>(key).map(bool::to_string),
                ValueKind::Number | ValueKind::Text => matches
                    .get_raw(key)
                    .and_then(|mut values| values.next())
                    .map(|value| value.to_string_lossy().into_owned()),
            };
            let origin = match matches.value_source(key) {
                Some(ValueSource::CommandLine) => Origin::CommandLine,
                Some(ValueSource::EnvVariable) => Origin::Environment,
                Some(ValueSource::DefaultValue) if table.contains_key(key) => Origin::File,
                _ => Origin::Default,
            };
            Some(Setting {
                key: key.to_owned(),
                env: arg.get_env()?.to_string_lossy().into_owned(),
                kind: *kind,
                secret: arg.is_hide_env_values_set(),
                value,
                origin,
            })
        })
        .collect();
    Ok(CommandLine {
        cli,
        file,
        settings,
    })
}

/// `error` as a refused setting when it is a setting's value that its parser refused (from the
/// environment, say `TURNPOST_METRICS=maybe`): a configuration error (exit 78) naming the key
/// and its variable. Anything else (an unknown flag, `--help`) stays clap's usage error.
fn bad_setting(command: &clap::Command, error: clap::Error) -> LoadError {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if !matches!(
        error.kind(),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation
    ) {
        return LoadError::Usage(error);
    }
    let text = |kind: ContextKind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(text.clone()),
        _ => None,
    };
    // `--metrics <METRICS>`: the flag's long name is the key with `-` for `_`.
    let long = text(ContextKind::InvalidArg).and_then(|arg| {
        arg.strip_prefix("--")
            .map(|rest| rest.split([' ', '=']).next().unwrap_or(rest).to_owned())
    });
    let Some(arg) = long.and_then(|long| {
        command
            .get_arguments()
            .find(|arg| arg.get_long() == Some(long.as_str()))
    }) else {
        return LoadError::Usage(error);
    };
    let Some(env) = arg.get_env() else {
        return LoadError::Usage(error);
    };
    let why = match (std::error::Error::source(&error), arg.get_possible_values()) {
        (Some(source), _) => format!(": {source}"),
        (None, choices) if !choices.is_empty() => format!(
            ": expected one of {}",
            choices
                .iter()
                .map(|choice| format!("`{}`", choice.get_name()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (None, _) => String::new(),
    };
    LoadError::BadSetting {
        key: arg.get_id().as_str().to_owned(),
        env: env.to_string_lossy().into_owned(),
        // A secret's value (a URL with a password) is not repeated.
        value: if arg.is_hide_env_values_set() {
            "…".to_owned()
        } else {
            text(ContextKind::InvalidValue).unwrap_or_default()
        },
        why,
    }
}

/// `command` with each of the file's values, checked, as its flag's default.
fn with_file_defaults(
    mut command: clap::Command,
    path: &Path,
    table: &toml::Table,
    keys: &[(String, ValueKind)],
) -> Result<clap::Command, LoadError> {
    for (key, value) in table {
        let Some(&(_, kind)) = keys.iter().find(|(known, _)| known == key) else {
            return Err(LoadError::UnknownKey {
                path: path.to_owned(),
                key: key.clone(),
                known: keys
                    .iter()
                    .map(|(known, _)| known.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        let text = file_value(&command, path, key, kind, value)?;
        command = command.mut_arg(key, |arg| arg.default_value(text));
    }
    Ok(command)
}

fn read_table(path: &Path) -> Result<toml::Table, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Read {
        path: path.to_owned(),
        source,
    })?;
    text.parse::<toml::Table>()
        .map_err(|error| LoadError::Syntax {
            path: path.to_owned(),
            message: error.to_string().trim_end().to_owned(),
        })
}

/// The keys of the file: every setting with an environment variable, and its kind.
fn keys(command: &clap::Command) -> Vec<(String, ValueKind)> {
    command
        .get_arguments()
        .filter(|arg| arg.get_env().is_some() && arg.get_id() != CONFIG_FILE_FIELD)
        .map(|arg| (arg.get_id().as_str().to_owned(), kind_of(arg)))
        .collect()
}

fn kind_of(arg: &clap::Arg) -> ValueKind {
    let parsed = arg.get_value_parser().type_id();
    if parsed == TypeId::of::<bool>() {
        ValueKind::Boolean
    } else if [
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<i64>(),
        TypeId::of::<usize>(),
    ]
    .iter()
    .any(|id| parsed == *id)
    {
        ValueKind::Number
    } else {
        ValueKind::Text
    }
}

/// A file value as the flag's text, checked by the flag's own parser.
fn file_value(
    command: &clap::Command,
    path: &Path,
    key: &str,
    kind: ValueKind,
    value: &toml::Value,
) -> Result<String, LoadError> {
    let arg = command.get_arguments().find(|arg| arg.get_id() == key);
    let choices: Vec<String> = arg
        .map(|arg| {
            arg.get_possible_values()
                .iter()
                .map(|choice| choice.get_name().to_owned())
                .collect()
        })
        .unwrap_or_default();
    let expected = match kind {
        ValueKind::Boolean => "true or false".to_owned(),
        ValueKind::Number => "a whole number".to_owned(),
        ValueKind::Text if choices.is_empty() => "a string".to_owned(),
        ValueKind::Text => format!("one of \"{}\"", choices.join("\", \"")),
    };
    let refuse = |got: String| LoadError::BadValue {
        path: path.to_owned(),
        key: key.to_owned(),
        expected: expected.clone(),
        got,
    };
    let text = match (kind, value) {
        (ValueKind::Boolean, toml::Value::Boolean(flag)) => flag.to_string(),
        (ValueKind::Number, toml::Value::Integer(number)) => number.to_string(),
        (ValueKind::Text, toml::Value::String(text)) => text.clone(),
        (_, other) => return Err(refuse(format!("{} {other}", other.type_str()))),
    };
    if let Some(long) = arg
        .filter(|_| kind != ValueKind::Boolean)
        .and_then(|a| a.get_long())
    {
        // The flag alone, without its environment variable, parses the value as the flag would.
        let flag = arg.map(|arg| arg.clone().env(None::<&str>).global(false));
        let probe = clap::Command::new("probe").no_binary_name(true).args(flag);
        probe
            .try_get_matches_from([format!("--{long}={text}")])
            .map_err(|error| {
                let why = std::error::Error::source(&error)
                    .map(|source| format!(" ({source})"))
                    .unwrap_or_default();
                refuse(format!("{value}{why}"))
            })?;
    }
    Ok(text)
}
