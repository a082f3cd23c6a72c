//! States that are stored as text: each enum names its variants' text once, and everything
//! else (SQL parameters, JSON, messages, decoding stored rows) goes through `as_str` and
//! `parse`, so a state's spelling cannot drift between the code and the queries.

/// A stored state text that names no state of its kind (a corrupted or foreign row).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} {text:?}")]
pub struct UnknownState {
    pub kind: &'static str,
    pub text: String,
}

/// Declares a `Copy` enum of states, each with its stored text, and the conversions every
/// state enum shares: `ALL`, `as_str`, `parse`, `Display` and `TryFrom<String>` (which the
/// store uses to decode a text column straight into the enum).
macro_rules! text_states {
    (
        $(#[$meta:meta])*
        pub enum $name:ident ($kind:literal) {
            $($(#[$variant_meta:meta])* $variant:ident => $text:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$variant_meta])* $variant,)+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The text stored for this state (`const`, so constant lists can name states).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            pub fn parse(text: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|s| s.as_str() == text)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl TryFrom<String> for $name {
            type Error = $crate::text_state::UnknownState;

            fn try_from(text: String) -> Result<$name, Self::Error> {
                $name::parse(&text).ok_or($crate::text_state::UnknownState { kind: $kind, text })
            }
        }
    };
}
pub(crate) use text_states;
