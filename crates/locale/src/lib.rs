//! What a person reads Signet in: their language ([`Lang`]) with the catalogues of text
//! ([`Catalogue`]), and their organisation's time zone ([`Zone`]) with the one formatter of
//! instants every page, e-mail, certificate and signature appearance uses ([`Zone::format`]).
//!
//! No dependencies: the PDF engine (bytes in, bytes out) names the zone of an appearance's
//! date, the services write e-mails, the web crate its pages, all through this crate.

mod catalogue;
mod lang;
mod zone;

pub use catalogue::{Catalogue, fill, parse, placeholders};
pub use lang::Lang;
pub use zone::{UnknownZone, Zone};
