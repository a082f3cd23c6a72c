//! Just enough BER to find where one encoded value ends: CMS from some remote signing services is
//! BER with indefinite lengths, and the `/Contents` placeholder pads the value with zeros.

/// Total encoded length (tag + length + content) of the first value in `b`, definite or
/// indefinite length; `None` if it is malformed or runs past the end.
pub fn encoded_len(b: &[u8]) -> Option<usize> {
    encoded_len_at(b, 0, 0)
}

fn encoded_len_at(b: &[u8], start: usize, depth: usize) -> Option<usize> {
    if depth > 64 {
        return None;
    }
    let mut pos = start;
    let tag = *b.get(pos)?;
    pos += 1;
    if tag & 0x1f == 0x1f {
        // High tag number: continuation bytes while bit 8 is set.
        while *b.get(pos)? & 0x80 != 0 {
            pos += 1;
        }
        pos += 1;
    }
    let first = *b.get(pos)?;
    pos += 1;
    match first {
        0x80 => {
            // Indefinite length (constructed only): values until the 00 00 end-of-contents.
            if tag & 0x20 == 0 {
                return None;
            }
            loop {
                if b.get(pos..pos + 2)? == [0, 0] {
                    return Some(pos + 2 - start);
                }
                pos += encoded_len_at(b, pos, depth + 1)?;
            }
        }
        n if n < 0x80 => {
            let end = pos.checked_add(n as usize)?;
            (end <= b.len()).then_some(end - start)
        }
        n => {
            let k = (n & 0x7f) as usize;
            if k > 8 {
                return None;
            }
            let len = b.get(pos..pos + k)?.iter().fold(0usize, |a, x| (a << 8) | *x as usize);
            let end = pos.checked_add(k)?.checked_add(len)?;
            (end <= b.len()).then_some(end - start)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definite_and_indefinite_lengths() {
        assert_eq!(encoded_len(&[0x30, 0x03, 1, 2, 3, 0, 0]), Some(5));
        assert_eq!(encoded_len(&[0x30, 0x81, 0x01, 9, 0]), Some(4));
        // SEQUENCE (indefinite) { OCTET STRING 1 byte } EOC, then padding.
        assert_eq!(encoded_len(&[0x30, 0x80, 0x04, 0x01, 7, 0, 0, 0, 0]), Some(7));
        assert_eq!(encoded_len(&[0x30, 0x05, 1]), None);
        assert_eq!(encoded_len(&[0x04, 0x80, 0, 0]), None);
    }
}
