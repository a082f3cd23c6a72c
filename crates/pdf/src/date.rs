//! Dates without a calendar crate: PDF `D:` strings (UTC). An appearance's readable date is
//! written by `signet_locale::Zone` in the organisation's zone.

use std::time::{SystemTime, UNIX_EPOCH};

/// (year, month, day, hour, minute, second) in UTC.
pub fn civil(t: SystemTime) -> (i64, u32, u32, u32, u32, u32) {
    let secs = match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs() as i64),
    };
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, (rem / 3600) as u32, (rem / 60 % 60) as u32, (rem % 60) as u32)
}

/// `D:YYYYMMDDHHmmSS+00'00'` as ISO 32000 §7.9.4 wants for `/M`.
pub fn pdf_date(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = civil(t);
    format!("D:{y:04}{mo:02}{d:02}{h:02}{mi:02}{s:02}+00'00'")
}

/// Milliseconds since the Unix epoch (negative before it), as `signet_locale::Zone` takes them.
pub fn unix_millis(t: SystemTime) -> i64 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_millis()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_millis()).unwrap_or(i64::MAX),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn formats_known_instant() {
        let t = UNIX_EPOCH + Duration::from_secs(1_795_333_140); // 2026-11-22 07:39:00 UTC
        assert_eq!(pdf_date(t), "D:20261122073900+00'00'");
        assert_eq!(unix_millis(t), 1_795_333_140_000);
        assert_eq!(unix_millis(UNIX_EPOCH - Duration::from_secs(1)), -1000);
    }
}
