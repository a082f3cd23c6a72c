//! Signature images as image XObjects: JPEG passed through (DCTDecode), PNG decoded with its
//! alpha channel split into an `/SMask`.

use std::io::Cursor;

use image::{ImageFormat, ImageReader, Limits};

use crate::error::{Error, Result};
use crate::filters::flate_encode;
use crate::object::{Dict, ObjRef, Object, Stream, StreamData};
use crate::writer::ObjSink;

/// A signature image larger than this is a mistake (or an attack), not a signature.
const MAX_SIDE: u32 = 8000;
/// A signature image is embedded at most this many pixels wide and high: a signer's photo of
/// their signature (4000 px from a phone) is scaled down, so that it does not weigh on every
/// version of every document it goes into. 1600 px is 200 dpi over a box 20 cm wide.
pub const MAX_EMBEDDED_SIDE: u32 = 1600;
const MAX_BYTES: usize = 20 * 1024 * 1024;

pub struct EmbeddedImage {
    pub xobject: ObjRef,
    pub width: u32,
    pub height: u32,
}

pub fn embed_image(bytes: &[u8], sink: &mut dyn ObjSink) -> Result<EmbeddedImage> {
    if bytes.len() > MAX_BYTES {
        return Err(Error::Image("larger than 20 MB".into()));
    }
    if bytes.starts_with(&[0xff, 0xd8]) {
        if let Some(info) = jpeg_info(bytes)
            && (info.components == 1 || info.components == 3)
            && info.bits == 8
            && info.width.max(info.height) <= MAX_EMBEDDED_SIDE
        {
            return Ok(embed_jpeg(bytes, info, sink));
        }
        return embed_decoded(bytes, ImageFormat::Jpeg, sink);
    }
    if bytes.starts_with(b"\x89PNG") {
        check_png_palette(bytes)?;
        return embed_decoded(bytes, ImageFormat::Png, sink);
    }
    Err(Error::Image("only PNG and JPEG images are supported".into()))
}

/// Refuses a PNG whose palette (PLTE) is not 1 to 256 three-byte entries. The `png` decoder
/// (0.18) indexes past the end of such a palette and panics; the `images` fuzz target found
/// it. Chunks are walked by their stated lengths, within the bytes given.
fn check_png_palette(bytes: &[u8]) -> Result<()> {
    let mut at = 8;
    while let Some(header) = bytes.get(at..at + 8) {
        let length = u32::from_be_bytes([header[0], header[1], header[2], header[3]]) as usize;
        let kind = &header[4..8];
        if kind == b"PLTE" && (length == 0 || !length.is_multiple_of(3) || length > 3 * 256) {
            return Err(Error::Image("cannot decode: the PNG palette is malformed".into()));
        }
        if kind == b"IDAT" || kind == b"IEND" {
            break;
        }
        at = at.saturating_add(12).saturating_add(length);
    }
    Ok(())
}

#[derive(Clone, Copy)]
struct JpegInfo {
    width: u32,
    height: u32,
    components: u8,
    bits: u8,
}

/// Read the frame header (SOFn) to learn size and colour components.
fn jpeg_info(b: &[u8]) -> Option<JpegInfo> {
    let mut i = 2;
    while i + 4 <= b.len() {
        if b[i] != 0xff {
            i += 1;
            continue;
        }
        let marker = b[i + 1];
        if marker == 0xff {
            i += 1;
            continue;
        }
        let len = u16::from_be_bytes([b[i + 2], b[i + 3]]) as usize;
        let is_sof = matches!(marker, 0xc0..=0xcf) && !matches!(marker, 0xc4 | 0xc8 | 0xcc);
        if is_sof {
            let s = b.get(i + 4..i + 10)?;
            let info = JpegInfo {
                bits: s[0],
                height: u16::from_be_bytes([s[1], s[2]]) as u32,
                width: u16::from_be_bytes([s[3], s[4]]) as u32,
                components: s[5],
            };
            return (info.width > 0 && info.height > 0 && info.width <= MAX_SIDE && info.height <= MAX_SIDE)
                .then_some(info);
        }
        i += 2 + len;
    }
    None
}

fn embed_jpeg(bytes: &[u8], info: JpegInfo, sink: &mut dyn ObjSink) -> EmbeddedImage {
    let mut d = image_dict(info.width, info.height);
    d.set("ColorSpace", Object::name(if info.components == 1 { "DeviceGray" } else { "DeviceRGB" }));
    d.set("Filter", Object::name("DCTDecode"));
    let xobject = sink.add(Object::Stream(Stream { dict: d, data: StreamData::Owned(bytes.to_vec()) }));
    EmbeddedImage { xobject, width: info.width, height: info.height }
}

fn embed_decoded(bytes: &[u8], format: ImageFormat, sink: &mut dyn ObjSink) -> Result<EmbeddedImage> {
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(512 * 1024 * 1024);
    reader.limits(limits);
    let mut img = reader.decode().map_err(|e| Error::Image(format!("cannot decode: {e}")))?;
    if img.width().max(img.height()) > MAX_EMBEDDED_SIDE {
        img = img.resize(MAX_EMBEDDED_SIDE, MAX_EMBEDDED_SIDE, image::imageops::FilterType::Triangle);
    }
    let (width, height) = (img.width(), img.height());
    let smask = if img.color().has_alpha() {
        let rgba = img.to_rgba8();
        let alpha: Vec<u8> = rgba.pixels().map(|p| p.0[3]).collect();
        let mut d = image_dict(width, height);
        d.set("ColorSpace", Object::name("DeviceGray"));
        d.set("Filter", Object::name("FlateDecode"));
        Some(sink.add(Object::Stream(Stream { dict: d, data: StreamData::Owned(flate_encode(&alpha)) })))
    } else {
        None
    };
    let rgb = img.to_rgb8();
    let mut d = image_dict(width, height);
    d.set("ColorSpace", Object::name("DeviceRGB"));
    d.set("Filter", Object::name("FlateDecode"));
    if let Some(m) = smask {
        d.set("SMask", Object::Ref(m));
    }
    let xobject = sink.add(Object::Stream(Stream { dict: d, data: StreamData::Owned(flate_encode(rgb.as_raw())) }));
    Ok(EmbeddedImage { xobject, width, height })
}

fn image_dict(width: u32, height: u32) -> Dict {
    let mut d = Dict::new();
    d.set("Type", Object::name("XObject"));
    d.set("Subtype", Object::name("Image"));
    d.set("Width", Object::Int(width as i64));
    d.set("Height", Object::Int(height as i64));
    d.set("BitsPerComponent", Object::Int(8));
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keeps what is added, so that a test can read the image back.
    #[derive(Default)]
    struct Kept(Vec<Object>);

    impl ObjSink for Kept {
        fn add(&mut self, obj: Object) -> ObjRef {
            self.0.push(obj);
            ObjRef { num: self.0.len() as u32, generation: 0 }
        }
    }

    fn photo(width: u32, height: u32, format: ImageFormat) -> Vec<u8> {
        let img = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 90]));
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, format).expect("encode");
        out.into_inner()
    }

    #[test]
    fn a_large_photo_is_scaled_down_keeping_its_shape_and_a_small_one_is_kept() {
        for format in [ImageFormat::Png, ImageFormat::Jpeg] {
            let mut sink = Kept::default();
            let embedded = embed_image(&photo(3200, 800, format), &mut sink).expect("embedded");
            assert_eq!((embedded.width, embedded.height), (MAX_EMBEDDED_SIDE, 400), "{format:?}");
            let small = embed_image(&photo(300, 100, format), &mut sink).expect("embedded");
            assert_eq!((small.width, small.height), (300, 100), "{format:?}");
        }
    }
}
