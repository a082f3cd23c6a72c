//! The organisation's time zone and the one formatter of instants.
//!
//! A fixed list of zones rather than the IANA database: every zone Signet's customers in India
//! and the Gulf use keeps one offset all year (none has daylight saving), so an offset and a
//! name are exact for them, and no calendar crate or zone data is built into the binary. A
//! zone with daylight saving would need the database (`docs/decisions.md`).

use std::fmt::{self, Display};

use crate::Lang;

/// A time zone an organisation may choose; India Standard Time unless it chose another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Zone {
    /// India Standard Time, UTC+05:30 (`Asia/Kolkata`).
    #[default]
    Ist,
    /// Coordinated Universal Time.
    Utc,
    /// Gulf Standard Time, UTC+04:00 (`Asia/Dubai`): the United Arab Emirates, Oman.
    Gst,
    /// Arabia Standard Time, UTC+03:00 (`Asia/Riyadh`): Saudi Arabia, Kuwait, Qatar, Bahrain.
    Ast,
    /// Pakistan Standard Time, UTC+05:00 (`Asia/Karachi`).
    Pkt,
    /// Nepal Time, UTC+05:45 (`Asia/Kathmandu`).
    Npt,
    /// Singapore Time, UTC+08:00 (`Asia/Singapore`).
    Sgt,
}

/// A zone name that is not one of Signet's zones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownZone(pub String);

impl Display for UnknownZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a time zone Signet offers", self.0)
    }
}

impl std::error::Error for UnknownZone {}

const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 86_400_000;

const MONTHS_EN: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/// The months' short names in Hindi (as CLDR writes them).
const MONTHS_HI: [&str; 12] = ["जन॰", "फ़र॰", "मार्च", "अप्रैल", "मई", "जून", "जुल॰", "अग॰", "सित॰", "अक्तू॰", "नव॰", "दिस॰"];

impl Zone {
    /// Every zone, the default first.
    pub const ALL: [Zone; 7] = [Zone::Ist, Zone::Utc, Zone::Gst, Zone::Ast, Zone::Pkt, Zone::Npt, Zone::Sgt];

    /// The IANA name, which is what is stored and what the settings form posts.
    pub fn iana(self) -> &'static str {
        match self {
            Zone::Ist => "Asia/Kolkata",
            Zone::Utc => "UTC",
            Zone::Gst => "Asia/Dubai",
            Zone::Ast => "Asia/Riyadh",
            Zone::Pkt => "Asia/Karachi",
            Zone::Npt => "Asia/Kathmandu",
            Zone::Sgt => "Asia/Singapore",
        }
    }

    /// The abbreviation every formatted time ends with.
    pub fn abbreviation(self) -> &'static str {
        match self {
            Zone::Ist => "IST",
            Zone::Utc => "UTC",
            Zone::Gst => "GST",
            Zone::Ast => "AST",
            Zone::Pkt => "PKT",
            Zone::Npt => "NPT",
            Zone::Sgt => "SGT",
        }
    }

    /// Minutes east of UTC.
    pub fn offset_minutes(self) -> i64 {
        match self {
            Zone::Ist => 330,
            Zone::Utc => 0,
            Zone::Gst => 240,
            Zone::Ast => 180,
            Zone::Pkt => 300,
            Zone::Npt => 345,
            Zone::Sgt => 480,
        }
    }

    /// `UTC+05:30`, for choosing a zone.
    pub fn offset_label(self) -> String {
        let minutes = self.offset_minutes();
        format!("UTC{}{:02}:{:02}", if minutes < 0 { '-' } else { '+' }, minutes.abs() / 60, minutes.abs() % 60)
    }

    /// The zone an IANA name (or its abbreviation) names; `Asia/Calcutta`, the old name of
    /// `Asia/Kolkata`, and `Etc/UTC` too.
    pub fn from_name(name: &str) -> Result<Zone, UnknownZone> {
        let name = name.trim();
        let alias = match name {
            "Asia/Calcutta" => Some(Zone::Ist),
            "Etc/UTC" | "Etc/GMT" | "GMT" | "Z" => Some(Zone::Utc),
            "Asia/Muscat" => Some(Zone::Gst),
            "Asia/Kuwait" | "Asia/Qatar" | "Asia/Bahrain" => Some(Zone::Ast),
            "Asia/Katmandu" => Some(Zone::Npt),
            _ => None,
        };
        alias
            .or_else(|| Zone::ALL.into_iter().find(|z| z.iana().eq_ignore_ascii_case(name) || z.abbreviation() == name))
            .ok_or_else(|| UnknownZone(name.chars().take(64).collect()))
    }

    /// The wall-clock reading of an instant (milliseconds since the Unix epoch) in this zone.
    pub fn civil(self, at_millis: i64) -> Civil {
        let local = at_millis.saturating_add(self.offset_minutes() * MINUTE_MS);
        let (year, month, day) = civil_from_days(local.div_euclid(DAY_MS));
        let seconds = local.rem_euclid(DAY_MS) / 1000;
        Civil {
            year,
            month,
            day,
            hour: (seconds / 3600) as u32,
            minute: (seconds / 60 % 60) as u32,
            second: (seconds % 60) as u32,
        }
    }

    /// `28 Nov 2026, 01:00 IST`: the one form of a time on pages, in e-mails and certificates.
    pub fn format(self, at_millis: i64) -> String {
        self.format_in(Lang::En, at_millis)
    }

    /// [`Zone::format`] with the month named in `lang`.
    pub fn format_in(self, lang: Lang, at_millis: i64) -> String {
        let c = self.civil(at_millis);
        format!("{}, {:02}:{:02} {}", c.date_in(lang), c.hour, c.minute, self.abbreviation())
    }

    /// `28 Nov 2026, 01:00:05 IST`: to the second, for records (certificates, appearances).
    pub fn format_seconds(self, at_millis: i64) -> String {
        let c = self.civil(at_millis);
        format!("{}, {:02}:{:02}:{:02} {}", c.date_in(Lang::En), c.hour, c.minute, c.second, self.abbreviation())
    }

    /// `28 Nov 2026`: the day of an instant in this zone (a date box, a last day).
    pub fn date(self, at_millis: i64) -> String {
        self.civil(at_millis).date_in(Lang::En)
    }

    /// [`Zone::date`] with the month named in `lang`.
    pub fn date_in(self, lang: Lang, at_millis: i64) -> String {
        self.civil(at_millis).date_in(lang)
    }
}

impl Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.iana())
    }
}

/// A wall-clock reading: a proleptic Gregorian date and a time of day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Civil {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
}

impl Civil {
    /// `03 May 2026`: the day first, the month in words, so no reader mistakes one for the other.
    fn date_in(self, lang: Lang) -> String {
        let months = match lang {
            Lang::En => &MONTHS_EN,
            Lang::Hi => &MONTHS_HI,
        };
        let month = months.get(self.month.saturating_sub(1) as usize).copied().unwrap_or("?");
        format!("{:02} {month} {}", self.day, self.year)
    }
}

/// Days since 1970-01-01 to (year, month, day) (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 27 Nov 2026, 19:30:00 UTC.
    const EVENING_UTC: i64 = 1_795_807_800_000;

    #[test]
    fn an_instant_near_midnight_utc_is_the_next_day_in_india() {
        // 19:30 UTC is 01:00 the next day in India: the day the signer sees on the date box.
        assert_eq!(Zone::Utc.format(EVENING_UTC), "27 Nov 2026, 19:30 UTC");
        assert_eq!(Zone::Ist.format(EVENING_UTC), "28 Nov 2026, 01:00 IST");
        assert_eq!(Zone::default().format(EVENING_UTC), "28 Nov 2026, 01:00 IST");
        assert_eq!(Zone::Ist.date(EVENING_UTC), "28 Nov 2026");
        assert_eq!(Zone::Ist.format_seconds(EVENING_UTC + 5_000), "28 Nov 2026, 01:00:05 IST");
        assert_eq!(Zone::Gst.format(EVENING_UTC), "27 Nov 2026, 23:30 GST");
        assert_eq!(Zone::Npt.format(EVENING_UTC), "28 Nov 2026, 01:15 NPT");
    }

    #[test]
    fn hindi_names_the_month_in_hindi_and_keeps_the_zone() {
        assert_eq!(Zone::Ist.format_in(Lang::Hi, EVENING_UTC), "28 नव॰ 2026, 01:00 IST");
    }

    #[test]
    fn the_epoch_and_leap_days_read_right() {
        assert_eq!(Zone::Utc.format_seconds(0), "01 Jan 1970, 00:00:00 UTC");
        assert_eq!(Zone::Ist.date(951_782_400_000), "29 Feb 2000");
        assert_eq!(Zone::Utc.format(-1), "31 Dec 1969, 23:59 UTC");
    }

    #[test]
    fn zones_are_named_by_iana_names_and_aliases() {
        for zone in Zone::ALL {
            assert_eq!(Zone::from_name(zone.iana()), Ok(zone));
        }
        assert_eq!(Zone::from_name("Asia/Calcutta"), Ok(Zone::Ist));
        assert_eq!(Zone::from_name(" asia/kolkata "), Ok(Zone::Ist));
        assert_eq!(Zone::from_name("Etc/UTC"), Ok(Zone::Utc));
        assert!(Zone::from_name("Europe/London").is_err());
        assert_eq!(Zone::Ist.offset_label(), "UTC+05:30");
        assert_eq!(Zone::Npt.offset_label(), "UTC+05:45");
    }
}
