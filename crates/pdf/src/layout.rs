//! Where signature boxes go: page selection, the nine named positions (DESIGN.md §2), custom
//! boxes measured from the top-left corner, and rotated pages (the box stays upright for the reader).

use crate::error::{Error, Result};
use crate::reader::Page;

/// A4 in points: the named positions are defined on it and scaled to the actual page box.
const A4_WIDTH: f64 = 595.0;
const A4_HEIGHT: f64 = 842.0;

/// Which pages get a widget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageSelection {
    All,
    First,
    Last,
    Even,
    Odd,
    /// 1-based page numbers.
    List(Vec<u32>),
}

impl PageSelection {
    /// Parse the gateway notation: `ALL`, `FIRST`, `LAST`, `EVEN`, `ODD` or `1,3,5`.
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        Ok(match t.to_ascii_uppercase().as_str() {
            "ALL" => PageSelection::All,
            "FIRST" => PageSelection::First,
            "LAST" => PageSelection::Last,
            "EVEN" => PageSelection::Even,
            "ODD" => PageSelection::Odd,
            _ => {
                let pages = t
                    .split(',')
                    .map(|p| p.trim().parse::<u32>().ok().filter(|n| *n >= 1))
                    .collect::<Option<Vec<_>>>()
                    .filter(|v| !v.is_empty())
                    .ok_or_else(|| Error::InvalidOptions(format!("bad page selection {t:?}")))?;
                PageSelection::List(pages)
            }
        })
    }

    /// 0-based indices of the selected pages, in document order.
    pub fn indices(&self, page_count: usize) -> Result<Vec<usize>> {
        let all = 0..page_count;
        Ok(match self {
            PageSelection::All => all.collect(),
            PageSelection::First => vec![0],
            PageSelection::Last => vec![page_count.saturating_sub(1)],
            // "Even" and "odd" are page numbers as people count them (1-based).
            PageSelection::Even => all.filter(|i| (i + 1) % 2 == 0).collect(),
            PageSelection::Odd => all.filter(|i| (i + 1) % 2 == 1).collect(),
            PageSelection::List(list) => {
                let mut out = Vec::new();
                for &p in list {
                    if p as usize > page_count || p == 0 {
                        return Err(Error::NoSuchPage(p, page_count));
                    }
                    if !out.contains(&(p as usize - 1)) {
                        out.push(p as usize - 1);
                    }
                }
                out
            }
        })
    }
}

/// The nine named positions of DESIGN.md §2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    TopLeft,
    TopCenter,
    TopRight,
    MiddleLeft,
    MiddleCenter,
    MiddleRight,
    BottomLeft,
    BottomCenter,
    BottomRight,
}

impl Position {
    /// Accepts `Top-Left`, `top_left`, `TopLeft`, `TOP LEFT` ... (case and separators ignored).
    pub fn parse(s: &str) -> Result<Self> {
        let key: String = s.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
        Ok(match key.as_str() {
            "topleft" => Position::TopLeft,
            "topcenter" | "topcentre" => Position::TopCenter,
            "topright" => Position::TopRight,
            "middleleft" => Position::MiddleLeft,
            "middlecenter" | "middlecentre" | "center" | "centre" => Position::MiddleCenter,
            "middleright" => Position::MiddleRight,
            "bottomleft" => Position::BottomLeft,
            "bottomcenter" | "bottomcentre" => Position::BottomCenter,
            "bottomright" => Position::BottomRight,
            _ => return Err(Error::InvalidOptions(format!("unknown position {s:?}"))),
        })
    }

    /// Default box on an A4 page (llx, lly, urx, ury), from DESIGN.md §2.
    fn a4_box(self) -> [f64; 4] {
        let (x, y) = match self {
            Position::TopLeft => (25.0, 725.0),
            Position::TopCenter => (225.0, 725.0),
            Position::TopRight => (425.0, 725.0),
            Position::MiddleLeft => (25.0, 425.0),
            Position::MiddleCenter => (225.0, 425.0),
            Position::MiddleRight => (425.0, 425.0),
            Position::BottomLeft => (25.0, 100.0),
            Position::BottomCenter => (225.0, 100.0),
            Position::BottomRight => (425.0, 100.0),
        };
        [x, y, x + 120.0, y + 60.0]
    }
}

/// A box on the page as the reader sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BoxSpec {
    Named(Position),
    /// `left, top, width, height` in points from the top-left corner of the displayed page.
    Custom {
        left: f64,
        top: f64,
        width: f64,
        height: f64,
    },
}

impl BoxSpec {
    /// Parse `left,top,width,height`.
    pub fn parse_custom(s: &str) -> Result<Self> {
        let v = parse_numbers(s, 4)?;
        custom(v[0], v[1], v[2], v[3])
    }
}

impl BoxSpec {
    /// The box on a displayed page of `width` x `height` points: `[llx, lly, urx, ury]` from
    /// the bottom-left corner (a named position is scaled from its A4 place).
    pub fn shown_rect(&self, width: f64, height: f64) -> [f64; 4] {
        match *self {
            BoxSpec::Named(pos) => {
                let a = pos.a4_box();
                let (sx, sy) = (width / A4_WIDTH, height / A4_HEIGHT);
                [a[0] * sx, a[1] * sy, a[2] * sx, a[3] * sy]
            }
            BoxSpec::Custom { left, top, width: w, height: h } => [left, height - top - h, left + w, height - top],
        }
    }

    /// The box on a displayed page as screens place it: `[left, top, width, height]` from the
    /// top-left corner.
    pub fn top_left_box(&self, width: f64, height: f64) -> [f64; 4] {
        let [x0, y0, x1, y1] = self.shown_rect(width, height);
        [x0, height - y1, x1 - x0, y1 - y0]
    }
}

fn custom(left: f64, top: f64, width: f64, height: f64) -> Result<BoxSpec> {
    if !(width > 0.0 && height > 0.0 && left >= 0.0 && top >= 0.0) {
        return Err(Error::InvalidOptions(
            "a signature box needs a positive width and height and a non-negative position".into(),
        ));
    }
    Ok(BoxSpec::Custom { left, top, width, height })
}

/// Parse page-level boxes `<page>,<left>,<top>,<width>,<height>;...` (1-based pages).
pub fn parse_page_boxes(s: &str) -> Result<Vec<(u32, BoxSpec)>> {
    let mut out = Vec::new();
    for part in s.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let v = parse_numbers(part, 5)?;
        if v[0] < 1.0 || v[0].fract() != 0.0 {
            return Err(Error::InvalidOptions(format!("bad page number in {part:?}")));
        }
        out.push((v[0] as u32, custom(v[1], v[2], v[3], v[4])?));
    }
    if out.is_empty() {
        return Err(Error::InvalidOptions("no page-level boxes given".into()));
    }
    Ok(out)
}

fn parse_numbers(s: &str, n: usize) -> Result<Vec<f64>> {
    let v: Vec<f64> = s
        .split(',')
        .map(|x| x.trim().parse::<f64>().ok().filter(|f| f.is_finite()))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| Error::InvalidOptions(format!("bad numbers in {s:?}")))?;
    if v.len() != n {
        return Err(Error::InvalidOptions(format!("expected {n} numbers in {s:?}")));
    }
    Ok(v)
}

/// A placed widget: its `/Rect` in default user space, the upright appearance size and the
/// appearance `/Matrix` that undoes the page rotation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    pub rect: [f64; 4],
    pub width: f64,
    pub height: f64,
    pub matrix: [f64; 6],
}

/// Place `spec` on `page`: compute the box in the displayed (rotated) frame, then map it back.
pub fn place(page: &Page, spec: &BoxSpec) -> Placement {
    let b = page.crop_box;
    let (bw, bh) = (b[2] - b[0], b[3] - b[1]);
    let (dw, dh) = if page.rotate % 180 == 0 { (bw, bh) } else { (bh, bw) };
    let shown = spec.shown_rect(dw, dh);
    let to_user = |x: f64, y: f64| -> (f64, f64) {
        let (ux, uy) = match page.rotate {
            90 => (bw - y, x),
            180 => (bw - x, bh - y),
            270 => (y, bh - x),
            _ => (x, y),
        };
        (b[0] + ux, b[1] + uy)
    };
    let (x1, y1) = to_user(shown[0], shown[1]);
    let (x2, y2) = to_user(shown[2], shown[3]);
    let matrix = rotation_matrix(page.rotate);
    Placement {
        rect: [x1.min(x2), y1.min(y2), x1.max(x2), y1.max(y2)],
        width: shown[2] - shown[0],
        height: shown[3] - shown[1],
        matrix,
    }
}

/// The appearance `/Matrix` that turns upright content with the page's `/Rotate`.
pub fn rotation_matrix(rotate: i32) -> [f64; 6] {
    match rotate {
        90 => [0.0, 1.0, -1.0, 0.0, 0.0, 0.0],
        180 => [-1.0, 0.0, 0.0, -1.0, 0.0, 0.0],
        270 => [0.0, -1.0, 1.0, 0.0, 0.0, 0.0],
        _ => [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::{Dict, ObjRef};

    fn page(w: f64, h: f64, rotate: i32) -> Page {
        Page {
            id: ObjRef::new(1, 0),
            dict: Dict::new(),
            media_box: [0.0, 0.0, w, h],
            crop_box: [0.0, 0.0, w, h],
            rotate,
        }
    }

    #[test]
    fn named_positions_on_a4_match_the_design() {
        let p = place(&page(595.0, 842.0, 0), &BoxSpec::Named(Position::BottomRight));
        assert_eq!(p.rect, [425.0, 100.0, 545.0, 160.0]);
    }

    #[test]
    fn custom_box_is_measured_from_top_left() {
        let spec = BoxSpec::parse_custom("10,20,100,50").expect("valid");
        let p = place(&page(612.0, 792.0, 0), &spec);
        assert_eq!(p.rect, [10.0, 722.0, 110.0, 772.0]);
    }

    #[test]
    fn rotated_page_keeps_box_upright() {
        // Page 612x792 rotated 90: displayed 792 wide, 612 high. Top-left box (10,20,100,50).
        let spec = BoxSpec::parse_custom("10,20,100,50").expect("valid");
        let p = place(&page(612.0, 792.0, 90), &spec);
        // In user space the box is 50 wide (x) and 100 high (y).
        assert_eq!(p.rect[2] - p.rect[0], 50.0);
        assert_eq!(p.rect[3] - p.rect[1], 100.0);
        // Displayed top edge = user left side; displayed left = user bottom.
        assert_eq!(p.rect, [20.0, 10.0, 70.0, 110.0]);
        assert_eq!((p.width, p.height), (100.0, 50.0));
    }

    #[test]
    fn page_selection_and_boxes_parse() {
        assert_eq!(PageSelection::parse("even").expect("ok").indices(5).expect("ok"), vec![1, 3]);
        assert_eq!(PageSelection::parse("1, 3").expect("ok"), PageSelection::List(vec![1, 3]));
        assert!(PageSelection::parse("x").is_err());
        assert!(PageSelection::List(vec![9]).indices(2).is_err());
        let boxes = parse_page_boxes("1,10,10,100,40;2,0,0,50,50").expect("ok");
        assert_eq!(boxes.len(), 2);
        assert!(parse_page_boxes("1,10,10,-1,40").is_err());
    }
}
