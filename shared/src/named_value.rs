//! Values known by a fixed set of names (a game's status, a tournament's format, a kind of
//! mail): one list of variant–name pairs gives the enum, its names both ways, its JSON and its
//! API schema, through [`named_value!`](crate::named_value!).

use std::fmt;

#[doc(hidden)]
pub use serde;

/// Defines an enum whose values are known by fixed names, from one list of `Variant = "name"`
/// pairs, preceded by the noun that messages use for the value:
///
/// ```
/// turnpost_shared::named_value! {
///     noun: "colour";
///     /// A colour.
///     #[derive(Default)]
///     pub enum Colour {
///         /// The first.
///         #[default]
///         Red = "red",
///         DarkBlue = "dark_blue",
///     }
/// }
///
/// assert_eq!(Colour::ALL, [Colour::Red, Colour::DarkBlue]);
/// assert_eq!(Colour::DarkBlue.as_str(), "dark_blue");
/// assert_eq!(" Dark_Blue ".parse(), Ok(Colour::DarkBlue));
/// assert_eq!(
///     "green".parse::<Colour>().unwrap_err().to_string(),
///     "unknown colour `green`: expected `red` or `dark_blue`"
/// );
/// ```
///
/// It derives `Debug`, `Clone`, `Copy`, `PartialEq`, `Eq` and `Hash` (the enum's own attributes
/// may add more) and generates `ALL` (every value, in the listed order), `as_str` (the name),
/// `Display` (the name), `FromStr` (the rule below; an [`UnknownName`] error that gives the
/// text and lists the names), serde's `Serialize` and `Deserialize` through the names, and,
/// with the `openapi` feature, utoipa's `ToSchema`: a string schema listing the names, described
/// by the enum's doc comment. A database column of such a value is the server's business
/// (`text_column!` and `Stored` there).
///
/// **The case rule, the one for every named value:** names are written in lower case (checked
/// when the crate compiles, as is that no two are equal), and a name is read with surrounding
/// white space ignored and ASCII letters in any case: `" Active "` reads as `active`. So the
/// command line, a form, JSON and the database are all read alike, and a name always reads back
/// as its value.
#[macro_export]
macro_rules! named_value {
    (
        noun: $noun:literal;
        $(#[$attribute:meta])*
        $visibility:vis enum $Name:ident {
            $(
                $(#[$variant_attribute:meta])*
                $Variant:ident = $name:literal
            ),+ $(,)?
        }
    ) => {
        $crate::__named_value_enum! {
            $(#[$attribute])*
            $visibility enum $Name {
                $( $(#[$variant_attribute])* $Variant = $name, )+
            }
        }

        const _: () = ::core::assert!(
            $crate::named_value::names_are_lower_case_and_distinct(&[$($name),+]),
            "named_value!: names must be distinct, in lower case, without surrounding spaces"
        );

        impl $Name {
            /// Every value, in the order of the definition.
            pub const ALL: [Self; [$($name),+].len()] = [$(Self::$Variant),+];

            /// The value's name: what JSON, the database and people see.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$Variant => $name,)+
                }
            }
        }

        impl ::core::fmt::Display for $Name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::core::str::FromStr for $Name {
            type Err = $crate::named_value::UnknownName;

            /// Reads a name, ignoring surrounding white space and the case of ASCII letters.
            fn from_str(text: &str) -> ::core::result::Result<Self, Self::Err> {
                Self::ALL
                    .into_iter()
                    .find(|value| $crate::named_value::is_name_of(value.as_str(), text))
                    .ok_or_else(|| $crate::named_value::UnknownName {
                        noun: $noun,
                        given: ::std::borrow::ToOwned::to_owned(text),
                        names: &[$($name),+],
                    })
            }
        }

        impl $crate::named_value::serde::Serialize for $Name {
            fn serialize<S>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error>
            where
                S: $crate::named_value::serde::Serializer,
            {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> $crate::named_value::serde::Deserialize<'de> for $Name {
            fn deserialize<D>(deserializer: D) -> ::core::result::Result<Self, D::Error>
            where
                D: $crate::named_value::serde::Deserializer<'de>,
            {
                let text =
                    <::std::string::String as $crate::named_value::serde::Deserialize>::deserialize(
                        deserializer,
                    )?;
                text.parse()
                    .map_err(<D::Error as $crate::named_value::serde::de::Error>::custom)
            }
        }
    };
}

/// The enum of [`named_value!`](crate::named_value!), with the API schema (`openapi` feature on
/// in this crate: the schema's names are the variants' names, its description the doc comment).
#[cfg(feature = "openapi")]
#[doc(hidden)]
#[macro_export]
macro_rules! __named_value_enum {
    (
        $(#[$attribute:meta])*
        $visibility:vis enum $Name:ident {
            $( $(#[$variant_attribute:meta])* $Variant:ident = $name:literal, )+
        }
    ) => {
        $(#[$attribute])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, utoipa::ToSchema)]
        $visibility enum $Name {
            $(
                $(#[$variant_attribute])*
                #[schema(rename = $name)]
                $Variant,
            )+
        }
    };
}

/// The enum of [`named_value!`](crate::named_value!) (without the `openapi` feature).
#[cfg(not(feature = "openapi"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __named_value_enum {
    (
        $(#[$attribute:meta])*
        $visibility:vis enum $Name:ident {
            $( $(#[$variant_attribute:meta])* $Variant:ident = $name:literal, )+
        }
    ) => {
        $(#[$attribute])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $visibility enum $Name {
            $( $(#[$variant_attribute])* $Variant, )+
        }
    };
}

/// Whether `text` reads as `name` by the case rule of [`named_value!`](crate::named_value!).
#[doc(hidden)]
#[must_use]
pub fn is_name_of(name: &str, text: &str) -> bool {
    name.eq_ignore_ascii_case(text.trim())
}

/// Whether every name is non-empty, free of ASCII capitals and surrounding spaces, and none
/// equals another (run when the crate compiles).
#[doc(hidden)]
#[must_use]
pub const fn names_are_lower_case_and_distinct(names: &[&str]) -> bool {
    let mut i = 0;
    while i < names.len() {
        let name = names[i].as_bytes();
        if name.is_empty() || name[0] == b' ' || name[name.len() - 1] == b' ' {
            return false;
        }
        let mut at = 0;
        while at < name.len() {
            if name[at].is_ascii_uppercase() {
                return false;
            }
            at += 1;
        }
        let mut j = 0;
        while j < i {
            if same_bytes(names[j].as_bytes(), name) {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

const fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut at = 0;
    while at < a.len() {
        if a[at] != b[at] {
            return false;
        }
        at += 1;
    }
    true
}

/// A text that is none of a named value's names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    /// What the value is called in messages ("game status").
    pub noun: &'static str,
    /// The text as given.
    pub given: String,
    /// Every name, in the order of the definition.
    pub names: &'static [&'static str],
}

impl fmt::Display for UnknownName {
    /// `unknown game status `over`: expected one of `invited`, `active`, …`; with two names
    /// `expected `auto` or `claim``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} `{}`: expected ", self.noun, self.given)?;
        match self.names {
            [only] => write!(f, "`{only}`"),
            [first, second] => write!(f, "`{first}` or `{second}`"),
            names => {
                f.write_str("one of ")?;
                for (at, name) in names.iter().enumerate() {
                    if at > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "`{name}`")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for UnknownName {}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use crate::api::{MessageAction, TournamentFormat, TournamentStatus, TurnMail};
    use crate::play::{GameStatus, OnLeave, ResultReason, TimeoutMode, UNKNOWN_TIMEOUT_MODE};
    use crate::rules::UNKNOWN_GAME_KIND;
    use crate::GameKind;

    /// Every value of each type reads back from its name (as written, and in capitals with
    /// spaces around), shows its name, and goes through JSON as its name; a text that is no
    /// name is refused with a message naming the text and listing every name.
    macro_rules! every_value_round_trips {
        ($($Type:ident),+) => {$(
            for value in $Type::ALL {
                let name = value.as_str();
                assert_eq!(name.parse::<$Type>(), Ok(value));
                assert_eq!(format!(" {} \n", name.to_uppercase()).parse::<$Type>(), Ok(value));
                assert_eq!(value.to_string(), name);
                let json = serde_json::to_string(&value).unwrap();
                assert_eq!(json, format!("\"{name}\""));
                assert_eq!(serde_json::from_str::<$Type>(&json).unwrap(), value);
            }
            let error = "nothing like it".parse::<$Type>().unwrap_err();
            assert_eq!(error.given, "nothing like it");
            assert_eq!(error.names, $Type::ALL.map($Type::as_str));
            let message = error.to_string();
            assert!(message.contains("`nothing like it`"), "{message}");
            for value in $Type::ALL {
                assert!(message.contains(&format!("`{value}`")), "{message} lacks {value}");
            }
            let json_error = serde_json::from_str::<$Type>("\"nothing like it\"")
                .unwrap_err()
                .to_string();
            assert!(json_error.starts_with(&message), "{json_error}");
        )+};
    }

    #[test]
    fn every_value_of_every_named_type_round_trips() {
        every_value_round_trips!(
            GameStatus,
            ResultReason,
            TurnMail,
            TimeoutMode,
            OnLeave,
            GameKind,
            TournamentFormat,
            TournamentStatus,
            MessageAction
        );
    }

    #[test]
    fn an_unknown_name_is_refused_with_the_names_listed() {
        assert_eq!(
            "over".parse::<GameStatus>().unwrap_err().to_string(),
            "unknown game status `over`: expected one of `invited`, `active`, `finished`, \
             `cancelled`"
        );
        assert_eq!(
            "stay".parse::<OnLeave>().unwrap_err().to_string(),
            "unknown on-leave rule `stay`: expected `remove` or `bot`"
        );
        let json = serde_json::from_str::<TimeoutMode>("\"never\"").unwrap_err();
        assert!(
            json.to_string()
                .starts_with("unknown timeout mode `never`: expected `auto` or `claim`"),
            "{json}"
        );
        assert!("chess"
            .parse::<GameKind>()
            .unwrap_err()
            .to_string()
            .starts_with(UNKNOWN_GAME_KIND));
        assert!("never"
            .parse::<TimeoutMode>()
            .unwrap_err()
            .to_string()
            .starts_with(UNKNOWN_TIMEOUT_MODE));
        let one = super::UnknownName {
            noun: "thing",
            given: "x".into(),
            names: &["only"],
        };
        assert_eq!(one.to_string(), "unknown thing `x`: expected `only`");
    }

    #[test]
    fn names_are_checked_for_case_spaces_and_repeats() {
        use super::names_are_lower_case_and_distinct as checked;
        assert!(checked(&["a", "b_c", "chinese-checkers"]));
        assert!(!checked(&["a", "A"]));
        assert!(!checked(&["a", " b"]));
        assert!(!checked(&["a", "b "]));
        assert!(!checked(&[""]));
        assert!(!checked(&["a", "b", "a"]));
    }

    #[test]
    fn defaults_stay_where_the_types_put_them() {
        assert_eq!(OnLeave::default(), OnLeave::Remove);
        assert_eq!(TimeoutMode::default(), TimeoutMode::Auto);
        assert_eq!(TurnMail::default(), TurnMail::Immediate);
    }
}
