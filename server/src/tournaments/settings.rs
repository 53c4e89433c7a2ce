//! A tournament row read into its types: format, status, the games' settings, and the
//! pairing module's format.

use std::collections::BTreeMap;

use chrono::NaiveDateTime;
use turnpost_shared::api::{OptionValue, TournamentFormat, TournamentStatus};
use turnpost_shared::play::TimeoutMode;
use turnpost_shared::GameKind;

use crate::db::tournaments::TournamentRow;
use crate::db::DbError;
use crate::games::arranged::Arrangement;
use crate::notify::tournament_mail::TournamentFacts;
use crate::pairing::Format;

/// A tournament's settings and state, typed.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The row as stored.
    pub row: TournamentRow,
    /// How its games are made.
    pub games: Arrangement,
    /// How rounds are paired.
    pub format: TournamentFormat,
    /// Where it is.
    pub status: TournamentStatus,
    /// Seats of a table (tables format).
    pub table_seats: Option<u8>,
    /// Swiss and tables: rounds as set; round-robin: once started.
    pub rounds: Option<u32>,
    /// The latest round paired.
    pub current_round: u32,
}

/// The stored text of a tournament's options: `key=value` pairs by key.
#[must_use]
pub fn options_text(options: &BTreeMap<String, OptionValue>) -> String {
    options
        .iter()
        .map(|(key, value)| {
            format!(
                "{}={}",
                key.trim().to_ascii_lowercase(),
                value.to_text().trim()
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A stored count in the type the code counts it in; `Err` when it does not fit (a corrupt
/// column).
fn narrowed<T: TryFrom<i32>>(stored: Option<i32>) -> Result<Option<T>, ()> {
    stored.map(T::try_from).transpose().map_err(|_| ())
}

impl Settings {
    /// Reads a stored row.
    ///
    /// # Errors
    /// [`DbError::Corrupt`] for a column the code cannot read.
    pub fn of_row(row: TournamentRow) -> Result<Self, DbError> {
        let corrupt = |what: &str| DbError::Corrupt(format!("tournament {}: {what}", row.id));
        let kind: GameKind = row.setup.kind.parse().map_err(|_| corrupt("kind"))?;
        let timeout: TimeoutMode = row
            .setup
            .timeout_mode
            .parse()
            .map_err(|_| corrupt("timeout_mode"))?;
        let format: TournamentFormat = row.setup.format.parse().map_err(|_| corrupt("format"))?;
        let status: TournamentStatus = row.status.parse().map_err(|_| corrupt("status"))?;
        let mut options = BTreeMap::new();
        for pair in row.setup.options.split_whitespace() {
            let (key, value) = pair.split_once('=').ok_or_else(|| corrupt("options"))?;
            options.insert(key.to_owned(), OptionValue::Text(value.to_owned()));
        }
        let table_seats = narrowed(row.setup.table_seats).map_err(|()| corrupt("table_seats"))?;
        let rounds = narrowed(row.setup.rounds).map_err(|()| corrupt("rounds"))?;
        let current_round =
            u32::try_from(row.current_round).map_err(|_| corrupt("current_round"))?;
        Ok(Self {
            games: Arrangement {
                kind,
                options,
                clock: row.setup.clock.clone(),
                timeout,
            },
            format,
            status,
            table_seats,
            rounds,
            current_round,
            row,
        })
    }

    /// What the tournament's mails name.
    #[must_use]
    pub fn facts(&self) -> TournamentFacts<'_> {
        TournamentFacts {
            id: self.row.id,
            name: &self.row.name,
            kind: &self.row.setup.kind,
            format: &self.row.setup.format,
            clock: &self.row.setup.clock,
            entry_closes_at: self.row.entry_closes_at,
            starts_when_full_at: self
                .row
                .max_players
                .filter(|_| self.row.start_when_full != 0)
                .and_then(|max| u32::try_from(max).ok()),
        }
    }

    /// The id.
    #[must_use]
    pub fn id(&self) -> i64 {
        self.row.id
    }

    /// When the entry window closes.
    #[must_use]
    pub fn entry_closes_at(&self) -> NaiveDateTime {
        self.row.entry_closes_at
    }

    /// Whether every round-robin round starts at once.
    #[must_use]
    pub fn all_at_once(&self) -> bool {
        self.format == TournamentFormat::RoundRobin && self.row.setup.all_at_once != 0
    }

    /// The pairing module's format.
    #[must_use]
    pub fn pairing_format(&self) -> Format {
        let rounds = self.rounds.unwrap_or(0);
        match self.format {
            TournamentFormat::RoundRobin => Format::RoundRobin {
                double: self.row.setup.double_round != 0,
            },
            TournamentFormat::Swiss => Format::Swiss { rounds },
            TournamentFormat::Tables => Format::Tables {
                seats: self.table_seats.unwrap_or(3),
                rounds,
            },
        }
    }

    /// The fewest entrants it starts with.
    #[must_use]
    pub fn minimum_players(&self) -> usize {
        match self.format {
            TournamentFormat::RoundRobin | TournamentFormat::Swiss => 2,
            TournamentFormat::Tables => 3,
        }
    }

    /// Whether players who leave (withdraw, lose on time) are left out of later rounds
    /// (Swiss, tables); a round-robin pairs them on and scores their games as forfeits.
    #[must_use]
    pub fn drops_leavers(&self) -> bool {
        self.format != TournamentFormat::RoundRobin
    }
}
