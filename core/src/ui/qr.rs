//! QR codes (ISO/IEC 18004, Model 2) for pairing URIs, and their SVG rendering.
//!
//! Data is encoded as a single byte-mode segment at the error-correction level asked for, in the
//! smallest version (1–40) that holds it. The mask is the one of the eight with the lowest
//! penalty score (ISO/IEC 18004 §7.8.3: N1 runs of five or more, N2 2×2 blocks, N3 finder-like
//! 1:1:3:1:1 patterns with four light modules on a side — the quiet zone counting as light —
//! and N4 dark/light balance in 5 % steps), the first such mask on ties.
//!
//! [`QrCode::to_svg`] draws the dark modules as one `<path>` of merged horizontal runs,
//! `fill="currentColor"`, inside a 4-module quiet zone, with the `viewBox` in module units.
//!
//! ```
//! use wm_core::ui::qr::{EcLevel, QrCode};
//! let code = QrCode::encode(b"wc:example@2?relay-protocol=irn", EcLevel::M).unwrap();
//! assert_eq!(code.version(), 3);
//! assert!(code.to_svg().starts_with("<svg "));
//! ```

use core::fmt;

/// Smallest version.
pub const MIN_VERSION: u8 = 1;
/// Largest version.
pub const MAX_VERSION: u8 = 40;
/// Light border drawn around the symbol by [`QrCode::to_svg`], in modules.
pub const QUIET_ZONE: usize = 4;

/// Error-correction level of a WalletConnect pairing code. A logo is drawn over its centre (as
/// AppKit and RainbowKit do), which hides about 5 % of the symbol: level Q restores up to 25 % of
/// the codewords, so the code still scans with margin for glare and a tilted camera.
pub const PAIRING_EC_LEVEL: EcLevel = EcLevel::Q;

/// Side of the logo area of [`QrCode::to_svg_with_logo_area`], in percent of the symbol's side
/// (quiet zone excluded): 22 % of the side is under 5 % of the area.
pub const LOGO_SIDE_PERCENT: usize = 22;

/// The centred square left light for a logo in a symbol of `size` modules: its first module on
/// each axis and its side, in modules of the symbol (quiet zone excluded). The side is odd like
/// the symbol's, so the square is centred on a module, and at most [`LOGO_SIDE_PERCENT`] of it.
pub fn logo_area(size: usize) -> (usize, usize) {
    let mut side = size * LOGO_SIDE_PERCENT / 100;
    if side % 2 != size % 2 {
        side = side.saturating_sub(1);
    }
    ((size - side) / 2, side)
}

/// Error-correction level: the share of codewords that can be restored (about 7, 15, 25, 30 %).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EcLevel {
    /// ~7 %.
    L,
    /// ~15 %.
    M,
    /// ~25 %.
    Q,
    /// ~30 %.
    H,
}

impl EcLevel {
    /// The four levels, lowest first.
    pub const ALL: [EcLevel; 4] = [EcLevel::L, EcLevel::M, EcLevel::Q, EcLevel::H];

    fn index(self) -> usize {
        self as usize
    }

    /// The two bits this level puts in the format information.
    fn format_bits(self) -> u32 {
        match self {
            EcLevel::L => 1,
            EcLevel::M => 0,
            EcLevel::Q => 3,
            EcLevel::H => 2,
        }
    }

    /// `"L"`, `"M"`, `"Q"` or `"H"`.
    pub fn as_str(self) -> &'static str {
        match self {
            EcLevel::L => "L",
            EcLevel::M => "M",
            EcLevel::Q => "Q",
            EcLevel::H => "H",
        }
    }
}

/// Why data could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QrError {
    /// More bytes than the largest allowed version holds at this level.
    DataTooLong {
        /// Bytes given.
        len: usize,
        /// Most bytes that fit.
        max: usize,
        /// The level asked for.
        level: EcLevel,
    },
    /// A version outside 1–40.
    InvalidVersion(u8),
    /// A mask outside 0–7.
    InvalidMask(u8),
}

impl fmt::Display for QrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QrError::DataTooLong { len, max, level } => write!(
                f,
                "data too long for a QR code: {len} bytes, at most {max} at level {}",
                level.as_str()
            ),
            QrError::InvalidVersion(v) => write!(f, "invalid QR version {v} (1-40)"),
            QrError::InvalidMask(m) => write!(f, "invalid QR mask {m} (0-7)"),
        }
    }
}

impl std::error::Error for QrError {}

// Per version (index 0 unused) and level (L, M, Q, H): error-correction codewords per block and
// number of blocks (ISO/IEC 18004 Table 9).
#[rustfmt::skip]
const ECC_PER_BLOCK: [[u8; 41]; 4] = [
    [0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
    [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
    [0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
    [0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
];
#[rustfmt::skip]
const NUM_BLOCKS: [[u8; 41]; 4] = [
    [0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
    [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
    [0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
    [0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
];

/// Modules left for codewords (data, error correction and remainder bits) in a version.
fn raw_data_modules(version: u8) -> usize {
    let v = usize::from(version);
    let mut n = (16 * v + 128) * v + 64;
    if v >= 2 {
        let align = v / 7 + 2;
        n -= (25 * align - 10) * align - 55;
        if v >= 7 {
            n -= 36;
        }
    }
    n
}

fn data_codewords(version: u8, ec: EcLevel) -> usize {
    let v = usize::from(version);
    raw_data_modules(version) / 8
        - usize::from(ECC_PER_BLOCK[ec.index()][v]) * usize::from(NUM_BLOCKS[ec.index()][v])
}

fn char_count_bits(version: u8) -> usize {
    if version <= 9 {
        8
    } else {
        16
    }
}

/// Most bytes a version holds in one byte-mode segment at a level.
pub fn capacity(version: u8, ec: EcLevel) -> usize {
    if !(MIN_VERSION..=MAX_VERSION).contains(&version) {
        return 0;
    }
    (data_codewords(version, ec) * 8 - 4 - char_count_bits(version)) / 8
}

/// Most bytes any QR code holds at a level (version 40).
pub fn max_len(ec: EcLevel) -> usize {
    capacity(MAX_VERSION, ec)
}

// ----- Reed-Solomon over GF(2^8), polynomial 0x11D ------------------------------------------

fn gf_mul(x: u8, y: u8) -> u8 {
    let mut z: u32 = 0;
    for i in (0..8).rev() {
        z = (z << 1) ^ ((z >> 7) * 0x11D);
        z ^= ((u32::from(y) >> i) & 1) * u32::from(x);
    }
    z as u8
}

/// Generator polynomial of the given degree (roots α^0 … α^(degree-1)), highest coefficient
/// (always 1) dropped.
fn rs_divisor(degree: usize) -> Vec<u8> {
    let mut poly = vec![0u8; degree];
    poly[degree - 1] = 1;
    let mut root = 1u8;
    for _ in 0..degree {
        for j in 0..degree {
            poly[j] = gf_mul(poly[j], root);
            if j + 1 < degree {
                poly[j] ^= poly[j + 1];
            }
        }
        root = gf_mul(root, 2);
    }
    poly
}

fn rs_remainder(data: &[u8], divisor: &[u8]) -> Vec<u8> {
    let mut rem = vec![0u8; divisor.len()];
    for &b in data {
        let factor = b ^ rem[0];
        rem.rotate_left(1);
        let last = rem.len() - 1;
        rem[last] = 0;
        for (r, &d) in rem.iter_mut().zip(divisor) {
            *r ^= gf_mul(d, factor);
        }
    }
    rem
}

// ----- codewords --------------------------------------------------------------------------

struct Bits(Vec<u8>, usize);

impl Bits {
    fn push(&mut self, value: u32, count: usize) {
        for i in (0..count).rev() {
            if self.1.is_multiple_of(8) {
                self.0.push(0);
            }
            if (value >> i) & 1 == 1 {
                let last = self.0.len() - 1;
                self.0[last] |= 0x80 >> (self.1 % 8);
            }
            self.1 += 1;
        }
    }
}

/// The data codewords: mode, count, bytes, terminator, padding.
fn data_stream(data: &[u8], version: u8, ec: EcLevel) -> Vec<u8> {
    let capacity_bits = data_codewords(version, ec) * 8;
    let mut bits = Bits(Vec::with_capacity(capacity_bits / 8), 0);
    bits.push(0b0100, 4);
    bits.push(data.len() as u32, char_count_bits(version));
    for &b in data {
        bits.push(u32::from(b), 8);
    }
    bits.push(0, (capacity_bits - bits.1).min(4));
    bits.push(0, (8 - bits.1 % 8) % 8);
    let mut pad = [0xEC, 0x11].into_iter().cycle();
    while bits.0.len() < capacity_bits / 8 {
        bits.0.extend(pad.next());
    }
    bits.0
}

/// Splits the data codewords into blocks, appends each block's error correction and
/// interleaves them.
fn interleave_with_ecc(data: &[u8], version: u8, ec: EcLevel) -> Vec<u8> {
    let v = usize::from(version);
    let blocks = usize::from(NUM_BLOCKS[ec.index()][v]);
    let ecc_len = usize::from(ECC_PER_BLOCK[ec.index()][v]);
    let raw = raw_data_modules(version) / 8;
    let short_blocks = blocks - raw % blocks;
    let short_len = raw / blocks;
    let divisor = rs_divisor(ecc_len);
    let mut all: Vec<Vec<u8>> = Vec::with_capacity(blocks);
    let mut at = 0;
    for i in 0..blocks {
        let len = short_len - ecc_len + usize::from(i >= short_blocks);
        let chunk = &data[at..at + len];
        at += len;
        let mut block = chunk.to_vec();
        if i < short_blocks {
            block.push(0); // placeholder, skipped below
        }
        block.extend(rs_remainder(chunk, &divisor));
        all.push(block);
    }
    let mut out = Vec::with_capacity(raw);
    for i in 0..=short_len {
        for (j, block) in all.iter().enumerate() {
            if i != short_len - ecc_len || j >= short_blocks {
                out.push(block[i]);
            }
        }
    }
    out
}

// ----- the symbol ---------------------------------------------------------------------------

/// An encoded QR code: a square of dark and light modules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrCode {
    version: u8,
    ec: EcLevel,
    mask: u8,
    size: usize,
    /// Row-major, `true` = dark.
    modules: Vec<bool>,
}

struct Grid {
    size: usize,
    modules: Vec<bool>,
    function: Vec<bool>,
}

impl Grid {
    fn set_function(&mut self, x: usize, y: usize, dark: bool) {
        let i = y * self.size + x;
        self.modules[i] = dark;
        self.function[i] = true;
    }

    fn draw_function_patterns(&mut self, version: u8, ec: EcLevel) {
        let size = self.size;
        for i in 0..size {
            self.set_function(6, i, i % 2 == 0);
            self.set_function(i, 6, i % 2 == 0);
        }
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4i32..=4 {
                for dx in -4i32..=4 {
                    let (x, y) = (cx as i32 + dx, cy as i32 + dy);
                    if (0..size as i32).contains(&x) && (0..size as i32).contains(&y) {
                        let d = dx.abs().max(dy.abs());
                        self.set_function(x as usize, y as usize, d != 2 && d != 4);
                    }
                }
            }
        }
        let pos = alignment_positions(version, size);
        let last = pos.len().saturating_sub(1);
        for (i, &cy) in pos.iter().enumerate() {
            for (j, &cx) in pos.iter().enumerate() {
                // The three corners taken by finder patterns.
                if (i == 0 && (j == 0 || j == last)) || (i == last && j == 0) {
                    continue;
                }
                for dy in -2i32..=2 {
                    for dx in -2i32..=2 {
                        let dark = dx.abs().max(dy.abs()) != 1;
                        self.set_function(
                            (cx as i32 + dx) as usize,
                            (cy as i32 + dy) as usize,
                            dark,
                        );
                    }
                }
            }
        }
        self.draw_format(ec, 0);
        if version >= 7 {
            let mut rem = u32::from(version);
            for _ in 0..12 {
                rem = (rem << 1) ^ ((rem >> 11) * 0x1F25);
            }
            let bits = u32::from(version) << 12 | rem;
            for i in 0..18 {
                let dark = (bits >> i) & 1 == 1;
                let (a, b) = (size - 11 + i % 3, i / 3);
                self.set_function(a, b, dark);
                self.set_function(b, a, dark);
            }
        }
    }

    fn draw_format(&mut self, ec: EcLevel, mask: u8) {
        let data = ec.format_bits() << 3 | u32::from(mask);
        let mut rem = data;
        for _ in 0..10 {
            rem = (rem << 1) ^ ((rem >> 9) * 0x537);
        }
        let bits = (data << 10 | rem) ^ 0x5412;
        let bit = |i: usize| (bits >> i) & 1 == 1;
        let size = self.size;
        for i in 0..=5 {
            self.set_function(8, i, bit(i));
        }
        self.set_function(8, 7, bit(6));
        self.set_function(8, 8, bit(7));
        self.set_function(7, 8, bit(8));
        for i in 9..15 {
            self.set_function(14 - i, 8, bit(i));
        }
        for i in 0..8 {
            self.set_function(size - 1 - i, 8, bit(i));
        }
        for i in 8..15 {
            self.set_function(8, size - 15 + i, bit(i));
        }
        self.set_function(8, size - 8, true);
    }

    /// Places the codewords in the two-column zigzag, bottom right first; remainder bits stay
    /// light.
    fn draw_codewords(&mut self, codewords: &[u8]) {
        let size = self.size;
        let total = codewords.len() * 8;
        let mut i = 0;
        let mut right = size - 1;
        loop {
            if right == 6 {
                right = 5;
            }
            let upward = (right + 1) & 2 == 0;
            for vert in 0..size {
                let y = if upward { size - 1 - vert } else { vert };
                for x in [right, right - 1] {
                    let at = y * size + x;
                    if !self.function[at] && i < total {
                        self.modules[at] = (codewords[i >> 3] >> (7 - (i & 7))) & 1 == 1;
                        i += 1;
                    }
                }
            }
            if right < 3 {
                break;
            }
            right -= 2;
        }
    }

    /// XORs the mask onto the non-function modules (applying it twice undoes it).
    fn apply_mask(&mut self, mask: u8) {
        let size = self.size;
        for y in 0..size {
            for x in 0..size {
                let flip = match mask {
                    0 => (x + y) % 2 == 0,
                    1 => y % 2 == 0,
                    2 => x % 3 == 0,
                    3 => (x + y) % 3 == 0,
                    4 => (x / 3 + y / 2) % 2 == 0,
                    5 => x * y % 2 + x * y % 3 == 0,
                    6 => (x * y % 2 + x * y % 3) % 2 == 0,
                    _ => ((x + y) % 2 + x * y % 3) % 2 == 0,
                };
                let at = y * size + x;
                if flip && !self.function[at] {
                    self.modules[at] ^= true;
                }
            }
        }
    }

    fn penalty(&self) -> u32 {
        const N1: u32 = 3;
        const N2: u32 = 3;
        const N3: u32 = 40;
        const N4: u32 = 10;
        let size = self.size;
        let at = |x: usize, y: usize| self.modules[y * size + x];
        let mut score = 0;
        for horizontal in [true, false] {
            for a in 0..size {
                let mut runs = Runs::new(size);
                let mut color = false;
                let mut len = 0usize;
                for b in 0..size {
                    let m = if horizontal { at(b, a) } else { at(a, b) };
                    if m == color {
                        len += 1;
                        if len == 5 {
                            score += N1;
                        } else if len > 5 {
                            score += 1;
                        }
                    } else {
                        runs.add(len);
                        if !color {
                            score += runs.finder_like() * N3;
                        }
                        color = m;
                        len = 1;
                    }
                }
                // End of the line: the quiet zone beyond is light.
                if color {
                    runs.add(len);
                    len = 0;
                }
                runs.add(len + size);
                score += runs.finder_like() * N3;
            }
        }
        for y in 0..size - 1 {
            for x in 0..size - 1 {
                let c = at(x, y);
                if c == at(x + 1, y) && c == at(x, y + 1) && c == at(x + 1, y + 1) {
                    score += N2;
                }
            }
        }
        let dark = self.modules.iter().filter(|&&m| m).count();
        // `total` is odd, so never exactly half dark.
        let total = size * size;
        // Smallest k with (45 - 5k)% <= dark share <= (55 + 5k)%.
        let k = (dark * 20).abs_diff(total * 10).div_ceil(total) - 1;
        score + k as u32 * N4
    }
}

/// The last seven run lengths of a line, newest first, for the finder-like pattern rule. The
/// first run of a line includes the light quiet zone before it.
struct Runs {
    size: usize,
    history: [usize; 7],
}

impl Runs {
    fn new(size: usize) -> Self {
        Runs {
            size,
            history: [0; 7],
        }
    }

    fn add(&mut self, mut len: usize) {
        if self.history[0] == 0 {
            len += self.size;
        }
        self.history.copy_within(0..6, 1);
        self.history[0] = len;
    }

    /// Called right after a light run was added: counts dark-light-dark×3-light-dark runs in
    /// 1:1:3:1:1 proportion with a light run of 4 on the left, the right, or both (each counts).
    fn finder_like(&self) -> u32 {
        let h = &self.history;
        let n = h[1];
        let core = n > 0 && h[2] == n && h[3] == n * 3 && h[4] == n && h[5] == n;
        u32::from(core && h[0] >= n * 4 && h[6] >= n)
            + u32::from(core && h[6] >= n * 4 && h[0] >= n)
    }
}

/// Centre coordinates of the alignment patterns of a version (both axes).
fn alignment_positions(version: u8, size: usize) -> Vec<usize> {
    if version == 1 {
        return Vec::new();
    }
    let v = usize::from(version);
    let count = v / 7 + 2;
    let step = (v * 8 + count * 3 + 5) / (count * 4 - 4) * 2;
    let mut pos: Vec<usize> = (0..count - 1).map(|i| size - 7 - i * step).collect();
    pos.push(6);
    pos.reverse();
    pos
}

impl QrCode {
    /// Encodes `data` in the smallest version that holds it, with the best mask.
    pub fn encode(data: &[u8], ec: EcLevel) -> Result<QrCode, QrError> {
        QrCode::encode_with(data, ec, MIN_VERSION, None)
    }

    /// Encodes `data` in the smallest version from `min_version` on that holds it, with the
    /// given mask or (`None`) the best one.
    pub fn encode_with(
        data: &[u8],
        ec: EcLevel,
        min_version: u8,
        mask: Option<u8>,
    ) -> Result<QrCode, QrError> {
        if !(MIN_VERSION..=MAX_VERSION).contains(&min_version) {
            return Err(QrError::InvalidVersion(min_version));
        }
        if let Some(m) = mask.filter(|&m| m > 7) {
            return Err(QrError::InvalidMask(m));
        }
        let version = (min_version..=MAX_VERSION)
            .find(|&v| data.len() <= capacity(v, ec))
            .ok_or(QrError::DataTooLong {
                len: data.len(),
                max: capacity(MAX_VERSION, ec),
                level: ec,
            })?;
        let codewords = interleave_with_ecc(&data_stream(data, version, ec), version, ec);
        let size = usize::from(version) * 4 + 17;
        let mut grid = Grid {
            size,
            modules: vec![false; size * size],
            function: vec![false; size * size],
        };
        grid.draw_function_patterns(version, ec);
        grid.draw_codewords(&codewords);
        let mask = mask.unwrap_or_else(|| {
            (0..8u8)
                .min_by_key(|&m| {
                    grid.apply_mask(m);
                    grid.draw_format(ec, m);
                    let score = grid.penalty();
                    grid.apply_mask(m);
                    score
                })
                .unwrap_or(0)
        });
        grid.apply_mask(mask);
        grid.draw_format(ec, mask);
        Ok(QrCode {
            version,
            ec,
            mask,
            size,
            modules: grid.modules,
        })
    }

    /// Version, 1–40.
    pub fn version(&self) -> u8 {
        self.version
    }

    /// Error-correction level.
    pub fn ec_level(&self) -> EcLevel {
        self.ec
    }

    /// Mask pattern, 0–7.
    pub fn mask(&self) -> u8 {
        self.mask
    }

    /// Modules per side (21–177), without the quiet zone.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether the module at column `x`, row `y` is dark (outside the symbol: light).
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        x < self.size && y < self.size && self.modules[y * self.size + x]
    }

    /// The modules, row-major, `true` = dark.
    pub fn modules(&self) -> &[bool] {
        &self.modules
    }

    /// The code as an SVG document (see the module docs), hidden from assistive technology:
    /// the view around it names it.
    pub fn to_svg(&self) -> String {
        self.svg(None)
    }

    /// The code as an SVG image named `label` for assistive technology (`role="img"`,
    /// `aria-label`).
    pub fn to_svg_labelled(&self, label: &str) -> String {
        self.svg(Some(label))
    }

    /// The code as an SVG document like [`QrCode::to_svg`] (named `label` when given) with the
    /// [`logo_area`] in its centre left light for a logo: no module is drawn there, and the root
    /// carries the area as `data-logo="x y side"` in `viewBox` units (quiet zone included). Meant
    /// for codes encoded at [`PAIRING_EC_LEVEL`], which restores the hidden codewords.
    pub fn to_svg_with_logo_area(&self, label: Option<&str>) -> String {
        let (start, side) = logo_area(self.size);
        self.svg_with(label, Some((start, side)))
    }

    fn svg(&self, label: Option<&str>) -> String {
        self.svg_with(label, None)
    }

    fn svg_with(&self, label: Option<&str>, logo: Option<(usize, usize)>) -> String {
        use fmt::Write;
        let side = self.size + 2 * QUIET_ZONE;
        let mut s = String::with_capacity(self.size * self.size * 3 + 256);
        let _ = write!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" \
             shape-rendering=\"crispEdges\""
        );
        if let Some((start, len)) = logo {
            let at = start + QUIET_ZONE;
            let _ = write!(s, " data-logo=\"{at} {at} {len}\"");
        }
        let in_logo = |x: usize, y: usize| {
            logo.is_some_and(|(start, len)| (start..start + len).contains(&x) && (start..start + len).contains(&y))
        };
        match label {
            Some(label) => {
                s.push_str(" role=\"img\" aria-label=\"");
                escape_attr(label, &mut s);
                s.push('"');
            }
            None => s.push_str(" aria-hidden=\"true\""),
        }
        s.push_str("><path fill=\"currentColor\" d=\"");
        for y in 0..self.size {
            let mut x = 0;
            while x < self.size {
                if !self.is_dark(x, y) || in_logo(x, y) {
                    x += 1;
                    continue;
                }
                let start = x;
                while self.is_dark(x, y) && !in_logo(x, y) {
                    x += 1;
                }
                let (px, py) = (start + QUIET_ZONE, y + QUIET_ZONE);
                let _ = write!(s, "M{px} {py}h{}v1H{px}z", x - start);
            }
        }
        s.push_str("\"/></svg>");
        s
    }
}

/// Appends `value` escaped for a double-quoted XML attribute. Characters XML 1.0 forbids
/// (control characters other than tab, newline and carriage return) are dropped; whitespace
/// controls are written as character references so attribute normalisation keeps them.
pub fn escape_attr(value: &str, out: &mut String) {
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => {}
            c => out.push(c),
        }
    }
}

/// `text` as an SVG QR code at level M (hidden from assistive technology), or why it cannot be
/// one.
pub fn svg(text: &str) -> Result<String, QrError> {
    QrCode::encode(text.as_bytes(), EcLevel::M).map(|c| c.to_svg())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use sha3::{Digest, Sha3_256};
    use EcLevel::{H, L, M, Q};

    /// First 16 hex digits of sha3-256 of the row-major '1'/'0' string of the modules.
    fn matrix_hash(code: &QrCode) -> String {
        let s: String = code
            .modules()
            .iter()
            .map(|&d| if d { '1' } else { '0' })
            .collect();
        Sha3_256::digest(s.as_bytes())
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Printable ASCII test data, `32 + (i * 7 + seed * 13) % 95` (same generator as the script).
    fn gen(len: usize, seed: usize) -> Vec<u8> {
        (0..len)
            .map(|i| 32 + ((i * 7 + seed * 13) % 95) as u8)
            .collect()
    }

    /// (version, level, capacity in bytes, forced mask, matrix hash), produced with npm `qrcode`
    /// 1.5.4 in a scratch directory (not a dependency of this repo):
    /// `QRCode.create([{ data: gen(capacity, version * 4 + level), mode: 'byte' }],
    /// { errorCorrectionLevel, maskPattern: (version + level) % 8 })`, level L=0 … H=3, the
    /// capacity being the longest data npm accepts for `version`, and npm's chosen version checked
    /// to be that version. Covers every version (alignment patterns, version information, block
    /// structure) at every level.
    #[rustfmt::skip]
    const NPM_FULL_CAPACITY: [(u8, EcLevel, usize, u8, &str); 160] = [
    (1, L, 17, 1, "ade6a0b873656e02"),
    (1, M, 14, 2, "6c14e560928f4afd"),
    (1, Q, 11, 3, "71f69944de464e83"),
    (1, H, 7, 4, "e1fb9ba4a0101c51"),
    (2, L, 32, 2, "5fb6813077347fb3"),
    (2, M, 26, 3, "b9580bf545adb82e"),
    (2, Q, 20, 4, "f139264f8360dc1d"),
    (2, H, 14, 5, "9be0418819c2bf98"),
    (3, L, 53, 3, "23cfac01dcefe341"),
    (3, M, 42, 4, "8b7e67dc8bb9b5e7"),
    (3, Q, 32, 5, "2d15a1396da26a2f"),
    (3, H, 24, 6, "5d8ffc8606df65f6"),
    (4, L, 78, 4, "9b884b351deb1263"),
    (4, M, 62, 5, "20f9cbfe53c8449f"),
    (4, Q, 46, 6, "ea41c7bfa17a934d"),
    (4, H, 34, 7, "b0dc7fbd8d8a5171"),
    (5, L, 106, 5, "4b97e3f67cc339f3"),
    (5, M, 84, 6, "c2032b0f2084c226"),
    (5, Q, 60, 7, "6f9736dbe304010a"),
    (5, H, 44, 0, "43dcbbc1aafc3766"),
    (6, L, 134, 6, "cee12687d2be4214"),
    (6, M, 106, 7, "1163f6bc87bdc6e3"),
    (6, Q, 74, 0, "de75fbf733cce92c"),
    (6, H, 58, 1, "d506dbebf3cd3c5e"),
    (7, L, 154, 7, "25d3956e91186c80"),
    (7, M, 122, 0, "2fa752853be9905b"),
    (7, Q, 86, 1, "e5e301142ec33899"),
    (7, H, 64, 2, "a2674db2a9c9c7f0"),
    (8, L, 192, 0, "b4d1b88b0ca0e8ca"),
    (8, M, 152, 1, "6eb32b9caf73f645"),
    (8, Q, 108, 2, "829c7b0f70407b3a"),
    (8, H, 84, 3, "52953998f365231a"),
    (9, L, 230, 1, "1aeeec0167bbd298"),
    (9, M, 180, 2, "d0bce52395e32e90"),
    (9, Q, 130, 3, "a313c398ece056d9"),
    (9, H, 98, 4, "e517ba1cc08cdd8a"),
    (10, L, 271, 2, "da449d43b7ae35d4"),
    (10, M, 213, 3, "d47ce60c4c64f32f"),
    (10, Q, 151, 4, "1e9c4cc1fa0cf435"),
    (10, H, 119, 5, "8efd12c2a6bc9536"),
    (11, L, 321, 3, "2a104932e856aa8e"),
    (11, M, 251, 4, "54cf67f4976cac9b"),
    (11, Q, 177, 5, "1be47466a8dcb206"),
    (11, H, 137, 6, "f1b8ccf9329545b9"),
    (12, L, 367, 4, "56f8763d6a7dab56"),
    (12, M, 287, 5, "17d364bec2a4ecac"),
    (12, Q, 203, 6, "d49f6e374f434212"),
    (12, H, 155, 7, "7784e7072eda6de8"),
    (13, L, 425, 5, "8606e7494513fdf1"),
    (13, M, 331, 6, "a271ae81a293b870"),
    (13, Q, 241, 7, "409bf282d69c94ff"),
    (13, H, 177, 0, "0f9b2e4e27d74432"),
    (14, L, 458, 6, "0fed2082d5eea650"),
    (14, M, 362, 7, "7b418095c2963114"),
    (14, Q, 258, 0, "ddfce405bebabdf4"),
    (14, H, 194, 1, "323697768b202193"),
    (15, L, 520, 7, "e10bcd33cd94403a"),
    (15, M, 412, 0, "a43ca3c1b00a860e"),
    (15, Q, 292, 1, "064e6a68514e6018"),
    (15, H, 220, 2, "b4d7e5152839e131"),
    (16, L, 586, 0, "0277e9042ca2695a"),
    (16, M, 450, 1, "085fb07ff4b4b3e4"),
    (16, Q, 322, 2, "533ef791fb344a6d"),
    (16, H, 250, 3, "a38f1b3cf7daed4f"),
    (17, L, 644, 1, "997cf9a165197e8d"),
    (17, M, 504, 2, "9c4813df32efc9a7"),
    (17, Q, 364, 3, "e1e4d940d12244f5"),
    (17, H, 280, 4, "4704775189d12b62"),
    (18, L, 718, 2, "8090bf215e757f34"),
    (18, M, 560, 3, "a45c07390e508b1c"),
    (18, Q, 394, 4, "66864890bee57bc6"),
    (18, H, 310, 5, "c917291f957d6b2c"),
    (19, L, 792, 3, "890c27aacc2d9545"),
    (19, M, 624, 4, "0f2426db808890c0"),
    (19, Q, 442, 5, "d11be88d85ec267c"),
    (19, H, 338, 6, "95ae8e8f38554807"),
    (20, L, 858, 4, "cb2bf7bfa0d5395d"),
    (20, M, 666, 5, "3cebee2cb258a4db"),
    (20, Q, 482, 6, "55be381c4c7d32e2"),
    (20, H, 382, 7, "40cb984aa532be79"),
    (21, L, 929, 5, "e58bb050212b0bd7"),
    (21, M, 711, 6, "9da05a0645978489"),
    (21, Q, 509, 7, "20d4fc19d25693ac"),
    (21, H, 403, 0, "f69b8b3bb16016b0"),
    (22, L, 1003, 6, "defa92a3e19fad70"),
    (22, M, 779, 7, "4e030da6d6e4a557"),
    (22, Q, 565, 0, "111d7575a0cfce6b"),
    (22, H, 439, 1, "b609b35c903a8d69"),
    (23, L, 1091, 7, "aff6ae63369ddd3b"),
    (23, M, 857, 0, "50587ac2476af981"),
    (23, Q, 611, 1, "8a2ed68be9668418"),
    (23, H, 461, 2, "8fc59d4d5ae4acd0"),
    (24, L, 1171, 0, "897f8dcb16dc2159"),
    (24, M, 911, 1, "c60f42ad996437dc"),
    (24, Q, 661, 2, "fb059dd5f629bac9"),
    (24, H, 511, 3, "4645dca20641ebd9"),
    (25, L, 1273, 1, "834f62e73ab5ccb3"),
    (25, M, 997, 2, "20d31f37cd5fbf68"),
    (25, Q, 715, 3, "d27ca29b51449b97"),
    (25, H, 535, 4, "f5c7337b53cb6b8f"),
    (26, L, 1367, 2, "5d461870a299235e"),
    (26, M, 1059, 3, "dae3bc48a21fadac"),
    (26, Q, 751, 4, "5fdd152f98211e7b"),
    (26, H, 593, 5, "cf1bc251ba6102b9"),
    (27, L, 1465, 3, "c99d3a81b02a8a06"),
    (27, M, 1125, 4, "e8d559464c9a5618"),
    (27, Q, 805, 5, "2bb023cf8e8681c5"),
    (27, H, 625, 6, "951470f5db823378"),
    (28, L, 1528, 4, "939aef20f7414ca3"),
    (28, M, 1190, 5, "8015953151a92091"),
    (28, Q, 868, 6, "5acd3925a64cdc8e"),
    (28, H, 658, 7, "575b7fad33ea865c"),
    (29, L, 1628, 5, "559d4ec69b9f10a3"),
    (29, M, 1264, 6, "ea05799d30479f71"),
    (29, Q, 908, 7, "9ba2dbfb438572b1"),
    (29, H, 698, 0, "b173fe1e28fed153"),
    (30, L, 1732, 6, "084099b4f7ad3308"),
    (30, M, 1370, 7, "6d21ae3b9e882797"),
    (30, Q, 982, 0, "db3b82b54287f75d"),
    (30, H, 742, 1, "f61a05e0bc2ec5eb"),
    (31, L, 1840, 7, "13d5d158bcd527b1"),
    (31, M, 1452, 0, "53970114b58da597"),
    (31, Q, 1030, 1, "88ace65da9da1f65"),
    (31, H, 790, 2, "50c23f049df154a6"),
    (32, L, 1952, 0, "b181837a74433b85"),
    (32, M, 1538, 1, "acaa5e24dde2b970"),
    (32, Q, 1112, 2, "ba1a242cb52a19dc"),
    (32, H, 842, 3, "b991be7d330b746c"),
    (33, L, 2068, 1, "64da0b5e075e0c97"),
    (33, M, 1628, 2, "0fe515b9f5a84c7b"),
    (33, Q, 1168, 3, "c68802763414dedf"),
    (33, H, 898, 4, "95e7ad718dc8bc3f"),
    (34, L, 2188, 2, "69e758564c1db732"),
    (34, M, 1722, 3, "e73d1417a37dc884"),
    (34, Q, 1228, 4, "a28c6be5853b2fdb"),
    (34, H, 958, 5, "4425b2852fac8f8d"),
    (35, L, 2303, 3, "7f0f21adffd15a93"),
    (35, M, 1809, 4, "84af535cc06c09ec"),
    (35, Q, 1283, 5, "411e39b3ae13d767"),
    (35, H, 983, 6, "f95e0eb54a565e4b"),
    (36, L, 2431, 4, "0b091afc857f0e5a"),
    (36, M, 1911, 5, "3baed4826cd011a3"),
    (36, Q, 1351, 6, "81406ada7fe296f3"),
    (36, H, 1051, 7, "9aa31fe8f765e6c0"),
    (37, L, 2563, 5, "80c087e8525ee25c"),
    (37, M, 1989, 6, "f4537a9dc1793b9f"),
    (37, Q, 1423, 7, "683e4494ec21d5be"),
    (37, H, 1093, 0, "67c5681d692f4d4e"),
    (38, L, 2699, 6, "be8f3b86adfa9675"),
    (38, M, 2099, 7, "91c0ce08a5e85399"),
    (38, Q, 1499, 0, "5c8ae89ad66762b0"),
    (38, H, 1139, 1, "110f87a5dc30ee41"),
    (39, L, 2809, 7, "5a5478285afb1f71"),
    (39, M, 2213, 0, "6061b51b5ed523e7"),
    (39, Q, 1579, 1, "cd14371f8d25ac47"),
    (39, H, 1219, 2, "57c562a3e6c92cf7"),
    (40, L, 2953, 0, "ac29d5d4281fd288"),
    (40, M, 2331, 1, "5a34bdf6e44b3108"),
    (40, Q, 1663, 2, "adf867a03c999447"),
    (40, H, 1273, 3, "cf11cb96245a31fb"),
    ];

    #[test]
    fn matrices_match_npm_qrcode_for_every_version_and_level_at_full_capacity() {
        for (version, ec, cap, mask, hash) in NPM_FULL_CAPACITY {
            let seed = usize::from(version) * 4 + ec.index();
            assert_eq!(capacity(version, ec), cap, "capacity of {version}-{ec:?}");
            let code = QrCode::encode_with(&gen(cap, seed), ec, 1, Some(mask)).unwrap();
            assert_eq!(
                code.version(),
                version,
                "smallest version holding {cap} bytes at {ec:?}"
            );
            assert_eq!(code.size(), usize::from(version) * 4 + 17);
            assert_eq!(code.mask(), mask);
            assert_eq!(matrix_hash(&code), hash, "matrix of {version}-{ec:?}");
            // One byte more needs the next version (or does not fit at all).
            match QrCode::encode_with(&gen(cap + 1, seed), ec, 1, Some(mask)) {
                Ok(c) => assert_eq!(c.version(), version + 1),
                Err(e) => {
                    assert_eq!(version, 40);
                    assert_eq!(
                        e,
                        QrError::DataTooLong {
                            len: cap + 1,
                            max: cap,
                            level: ec
                        }
                    );
                }
            }
        }
    }

    fn texts() -> Vec<String> {
        vec![
        "".to_string(),
        "a".to_string(),
        "hello".to_string(),
        "HELLO WORLD".to_string(),
        "https://walletconnect.com".to_string(),
        "wc:".to_string(),
        "012345678901234567890123456789".to_string(),
        "wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303".to_string(),
        "wc:9e065a7cbddfc57be742bc32956674c3c389521ac2bbb1dce0500d5131fede75@2?symKey=8174099687a26621f4e2cdd7cc03b3dacedb3fb962255b1aafd033cabe831530&relay-protocol=irn&expiryTimestamp=1700000977".to_string(),
        "wc:bac6f86b850df0ff7e07d0ce1cb1181fc13627f4287d87237ee2c4d658220896@2?symKey=b10253764c8b233fb37542e23401c7b450e5a6f9751f3b5a014f6f67e8bc999d&relay-protocol=irn&expiryTimestamp=1700001954".to_string(),
        "wc:d238d7f039754a9908592152cae5122de83fc84fa205274d32e59c048a817bdd@2?symKey=f576104eebeab09651d83acffc77c8b8c6eaa4b767aeab24d7da80f83f51d865&relay-protocol=irn&expiryTimestamp=1700002931".to_string(),
        "wc:1e52ea5749f568daa2c827a4d6e580a776a84fc725235250c07c7f282981cb45@2?symKey=a4b3504c2769fce9547f6dda310dd8b094d630a044d65f5324d4b37310aab714&relay-protocol=irn&expiryTimestamp=1700003908".to_string(),
        "wc:da256a4022d5af62225e8b2da76c3d1c36093bdf587a14fe6ef25fd3b49ac522@2?symKey=07e7394e0702340d9fd1d777fbbad2804a5188d1dd07ff580f473bd7645ff205&relay-protocol=irn&expiryTimestamp=1700004885".to_string(),
        "wc:cc574d152e58b767056406b5e72b1988bb91911d9fdfd0a90ad73e62f0f524de@2?symKey=8dfad052fee5c62957d3ebe1752219a02f45634b2c32a6ac408b26ffcedfb7da&relay-protocol=irn&expiryTimestamp=1700005862".to_string(),
        "wc:04d43e5a6af8c2e4aed43be7f8b71241d6a9a0c15cec0aae74a9b1bc0b271c93@2?symKey=1e3f92d0f678eb83b0bf93855d90699d8ae5dfb4ae023bdf352bd8d93f2060b1&relay-protocol=irn&expiryTimestamp=1700006839".to_string(),
        "wc:f1a5f2391be5df9a35f25bafa5c09790976d58657ce586f95aa8f11f2218a517@2?symKey=5bda7a9c0fb9e5102411342f9bedf63f37d8835ee6e903e95dd3050fd15af81c&relay-protocol=irn&expiryTimestamp=1700007816".to_string(),
        "é ünïcödé ✓ 🦀".to_string(),
        "x".repeat(100),
        "ab".repeat(150),
        "The quick brown fox jumps over the lazy dog. ".repeat(8),
        ]
    }

    /// (index in `texts()`, level, version, automatically chosen mask, matrix hash), produced
    /// with the Python package `qrcodegen` 1.8.0 (Project Nayuki) in a scratch virtualenv:
    /// `QrCode.encode_segments([QrSegment.make_bytes(text.encode())], level, boostecl=False)`.
    /// npm `qrcode` 1.5.4 agrees on 37 of the 40 M/Q cases; it differs on (3, Q), (17, M) and
    /// (19, M) because its N4 balance rule penalises 50–55 % dark (ceil instead of the 5 % steps
    /// around 50 % of ISO/IEC 18004 Table 11) and its N3 rule ignores the quiet zone.
    #[rustfmt::skip]
    const QRCODEGEN_AUTO_MASK: [(usize, EcLevel, u8, u8, &str); 80] = [
    (0, L, 1, 0, "c7637e7af83b7d50"),
    (0, M, 1, 3, "505f0dbbee6fd878"),
    (0, Q, 1, 0, "d1232bd1f1e94241"),
    (0, H, 1, 6, "28ec7d15413e11e7"),
    (1, L, 1, 0, "6d6cba355ccba61e"),
    (1, M, 1, 5, "3174fdfb193e2e91"),
    (1, Q, 1, 0, "f1d04e6481dedd30"),
    (1, H, 1, 6, "7b70fbd6c5295dd4"),
    (2, L, 1, 7, "52ac01b59a9f6600"),
    (2, M, 1, 0, "76ca57b7194e2e43"),
    (2, Q, 1, 0, "84170bf7f95c8134"),
    (2, H, 1, 6, "3c55bdf7f316eee9"),
    (3, L, 1, 0, "ec9255d23379b1fe"),
    (3, M, 1, 4, "864df24fd220c380"),
    (3, Q, 1, 7, "f95cccd6346a8250"),
    (3, H, 2, 3, "4a3813a0c54dc838"),
    (4, L, 2, 5, "14e867125d563b49"),
    (4, M, 2, 5, "b74a50bb54dbf4c3"),
    (4, Q, 3, 6, "401dc7c2447d578c"),
    (4, H, 4, 2, "0a60d46a49f1e99d"),
    (5, L, 1, 0, "3bf1587fc18dd0a6"),
    (5, M, 1, 2, "80444694ba1a0804"),
    (5, Q, 1, 0, "633b1ae82fb5b7fe"),
    (5, H, 1, 5, "c9da1af9325dbb05"),
    (6, L, 2, 2, "52658f0160fd6021"),
    (6, M, 3, 2, "50f972189b2fbfdc"),
    (6, Q, 3, 6, "090578fad5bf7dca"),
    (6, H, 4, 6, "bf2ea08cde7923de"),
    (7, L, 8, 2, "d6f3162c8a09c80b"),
    (7, M, 9, 2, "1d85f7913de73d07"),
    (7, Q, 11, 2, "328169bfde55329b"),
    (7, H, 13, 6, "d4e3d3321bdb7a87"),
    (8, L, 8, 2, "a536eceecefc0ee2"),
    (8, M, 10, 2, "d5a417853008faa7"),
    (8, Q, 12, 2, "50686cc42050f197"),
    (8, H, 14, 2, "f4e50c38a1a03bf1"),
    (9, L, 8, 2, "7b633e5192ee6976"),
    (9, M, 10, 2, "6d64176a45ffe699"),
    (9, Q, 12, 2, "b81732c202c40920"),
    (9, H, 14, 2, "7245ae235ad9d0e9"),
    (10, L, 8, 2, "3ae79d3af18b4e73"),
    (10, M, 10, 2, "616d52097c1e8c30"),
    (10, Q, 12, 2, "df2921673530c4f5"),
    (10, H, 14, 2, "32e8e59c8d734be8"),
    (11, L, 8, 2, "45166d65c480b58e"),
    (11, M, 10, 2, "dd8f66e17846547a"),
    (11, Q, 12, 2, "3936fd5866097f77"),
    (11, H, 14, 2, "ba63cb2c5ba7d9ad"),
    (12, L, 8, 2, "676795703b61001b"),
    (12, M, 10, 2, "27ec3347265f4fe4"),
    (12, Q, 12, 2, "c8a1527a2a04f9ce"),
    (12, H, 14, 4, "4d2897a522de7f7d"),
    (13, L, 8, 2, "f7c8f72c1d9156e2"),
    (13, M, 10, 2, "1ad505e2d2063c06"),
    (13, Q, 12, 2, "b2da2c72225bed8f"),
    (13, H, 14, 2, "5d1ec4e4f04a55c4"),
    (14, L, 8, 2, "20650f8d4c1b6b7a"),
    (14, M, 10, 2, "c65a06d4ad3cd56a"),
    (14, Q, 12, 2, "e60f1c43d8a1f60e"),
    (14, H, 14, 2, "0d358842f15e2512"),
    (15, L, 8, 2, "e6dcc27aa46129e6"),
    (15, M, 10, 2, "5059504143b65359"),
    (15, Q, 12, 2, "02ba9e3e3ddb287a"),
    (15, H, 14, 2, "cf8c4a5c958e1604"),
    (16, L, 2, 1, "bcc98f29c13a5bd0"),
    (16, M, 2, 6, "3f62355920b5f689"),
    (16, Q, 3, 7, "5ff5a7778a3c0081"),
    (16, H, 3, 1, "21aee036f795e1b9"),
    (17, L, 5, 0, "cbb7354f995ffaaf"),
    (17, M, 6, 3, "9a3354747bdb4728"),
    (17, Q, 8, 0, "abd38fe4880229a9"),
    (17, H, 10, 0, "c7f9631616d41639"),
    (18, L, 11, 6, "3b087da5818df3d7"),
    (18, M, 13, 2, "362d9437735a59af"),
    (18, Q, 16, 2, "dad47a47cf73a8cf"),
    (18, H, 18, 2, "6d79e5a4d7a2c40a"),
    (19, L, 12, 2, "a9b89548b2b58999"),
    (19, M, 14, 2, "ff082e04abf5e027"),
    (19, Q, 17, 3, "52972bcc44f9ac80"),
    (19, H, 20, 3, "a3e25fc1358174e5"),
    ];

    #[test]
    fn automatic_mask_choice_matches_qrcodegen() {
        let texts = texts();
        for (i, ec, version, mask, hash) in QRCODEGEN_AUTO_MASK {
            let code = QrCode::encode(texts[i].as_bytes(), ec).unwrap();
            assert_eq!(
                (code.version(), code.mask(), matrix_hash(&code).as_str()),
                (version, mask, hash),
                "text {i} at {ec:?}"
            );
        }
    }

    /// `wallet-modal` at level M, mask 5, from npm `qrcode` 1.5.4 (`maskPattern: 5`), printed
    /// row by row with `#` for dark modules.
    #[rustfmt::skip]
    const WALLET_MODAL_M5: [&str; 21] = [
        "#######.......#######",
        "#.....#.#.##..#.....#",
        "#.###.#.###...#.###.#",
        "#.###.#.##.#..#.###.#",
        "#.###.#...###.#.###.#",
        "#.....#..#..#.#.....#",
        "#######.#.#.#.#######",
        "........#####........",
        "#.....#.##..###..###.",
        "..##.#..##..##....#..",
        "#..#.#####.#.#...###.",
        ".##.##.####..#.#.####",
        "##..#####.#..#...#..#",
        "........##..###.##.##",
        "#######..#..####..##.",
        "#.....#.....###.###.#",
        "#.###.#..#.#..#....##",
        "#.###.#..#...#.###...",
        "#.###.#.....###.#####",
        "#.....#...####.#.##..",
        "#######.###.#.#....#.",
    ];

    fn art(code: &QrCode) -> Vec<String> {
        (0..code.size())
            .map(|y| {
                (0..code.size())
                    .map(|x| if code.is_dark(x, y) { '#' } else { '.' })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn version_1_matrix_matches_npm_qrcode_module_for_module() {
        let code = QrCode::encode_with(b"wallet-modal", M, 1, Some(5)).unwrap();
        assert_eq!(code.version(), 1);
        assert_eq!(art(&code), WALLET_MODAL_M5);
    }

    #[test]
    fn a_pairing_uri_fits_version_10_at_m() {
        let texts = texts();
        let code = QrCode::encode(texts[8].as_bytes(), M).unwrap();
        assert_eq!((code.version(), code.size()), (10, 57));
        assert_eq!(code.ec_level(), M);
    }

    #[test]
    fn the_smallest_version_that_holds_the_data_is_used_from_the_minimum_on() {
        assert_eq!(QrCode::encode(b"", M).unwrap().version(), 1);
        assert_eq!(QrCode::encode(&[b'a'; 14], M).unwrap().version(), 1);
        assert_eq!(QrCode::encode(&[b'a'; 15], M).unwrap().version(), 2);
        assert_eq!(QrCode::encode_with(b"a", Q, 5, None).unwrap().version(), 5);
    }

    #[test]
    fn data_too_long_for_version_40_is_a_clear_error() {
        for (ec, max) in [(L, 2953), (M, 2331), (Q, 1663), (H, 1273)] {
            assert_eq!(max_len(ec), max);
            assert!(QrCode::encode(&vec![0u8; max], ec).is_ok());
            let err = QrCode::encode(&vec![0u8; max + 1], ec).unwrap_err();
            assert_eq!(
                err,
                QrError::DataTooLong {
                    len: max + 1,
                    max,
                    level: ec
                }
            );
            assert_eq!(
                err.to_string(),
                format!(
                    "data too long for a QR code: {} bytes, at most {max} at level {}",
                    max + 1,
                    ec.as_str()
                )
            );
        }
        assert!(svg(&"a".repeat(2332))
            .unwrap_err()
            .to_string()
            .contains("at most 2331 at level M"));
    }

    #[test]
    fn bad_versions_and_masks_are_errors() {
        assert_eq!(
            QrCode::encode_with(b"a", M, 0, None),
            Err(QrError::InvalidVersion(0))
        );
        assert_eq!(
            QrCode::encode_with(b"a", M, 41, None),
            Err(QrError::InvalidVersion(41))
        );
        assert_eq!(
            QrCode::encode_with(b"a", M, 1, Some(8)),
            Err(QrError::InvalidMask(8))
        );
        assert_eq!(capacity(0, M), 0);
        assert_eq!(capacity(41, M), 0);
    }

    #[test]
    fn reed_solomon_codewords_of_the_iso_example() {
        // ISO/IEC 18004 Annex I: "01234567" as 1-M gives these 16 data codewords and 10 EC
        // codewords (the worked example of the standard).
        let data = [
            0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11,
            0xEC, 0x11,
        ];
        assert_eq!(
            rs_remainder(&data, &rs_divisor(10)),
            [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55]
        );
    }

    /// Reads the dark modules back from the path and checks its shape: one `M x y h w v1 H x z`
    /// per run, runs within the symbol, never touching each other on a row.
    fn modules_from_svg(svg: &str, size: usize) -> Vec<bool> {
        let d = svg
            .split(" d=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let mut grid = vec![false; size * size];
        for run in d.split('M').skip(1) {
            let run = run.strip_suffix('z').expect("run closed");
            let (xy, rest) = run.split_once('h').unwrap();
            let (x, y) = xy.split_once(' ').unwrap();
            let (w, back) = rest.split_once("v1H").unwrap();
            let (x, y, w): (usize, usize, usize) =
                (x.parse().unwrap(), y.parse().unwrap(), w.parse().unwrap());
            assert_eq!(back.parse::<usize>().unwrap(), x);
            assert!(w >= 1 && x >= QUIET_ZONE && y >= QUIET_ZONE);
            let (x, y) = (x - QUIET_ZONE, y - QUIET_ZONE);
            assert!(x + w <= size && y < size);
            for i in x..x + w {
                assert!(!grid[y * size + i], "overlapping runs");
                grid[y * size + i] = true;
            }
            assert!(x + w == size || !grid.get(y * size + x + w).copied().unwrap_or(false));
        }
        grid
    }

    #[test]
    fn svg_draws_exactly_the_dark_modules_as_merged_runs() {
        let texts = texts();
        for t in &texts {
            let code = QrCode::encode(t.as_bytes(), Q).unwrap();
            let svg = code.to_svg();
            assert_eq!(modules_from_svg(&svg, code.size()), code.modules(), "{t}");
            // Runs are maximal: as many as starts of dark runs.
            let starts = (0..code.size())
                .flat_map(|y| (0..code.size()).map(move |x| (x, y)))
                .filter(|&(x, y)| code.is_dark(x, y) && (x == 0 || !code.is_dark(x - 1, y)))
                .count();
            assert_eq!(svg.matches('M').count(), starts);
        }
    }

    #[test]
    fn svg_has_a_quiet_zone_viewbox_current_color_and_crisp_edges() {
        let code = QrCode::encode(b"wallet-modal", M).unwrap();
        let out = code.to_svg();
        assert!(out.starts_with(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 29 29\" shape-rendering=\"crispEdges\" aria-hidden=\"true\"><path fill=\"currentColor\" d=\"M4 4h7v1H4z"
        ), "{out}");
        assert!(out.ends_with("\"/></svg>"));
        assert_eq!(out.matches("<path").count(), 1);
        assert_eq!(out.matches('<').count(), 3);
        let rest = out.replacen("http://www.w3.org/2000/svg", "", 1);
        for banned in ["script", "href", "url(", "style", " on", "http", "<!", "<?"] {
            assert!(!rest.contains(banned), "{banned} in {out}");
        }
        assert_eq!(svg("wallet-modal").unwrap(), out);
    }

    #[test]
    fn svg_label_is_escaped_as_an_attribute_value() {
        let code = QrCode::encode(b"x", M).unwrap();
        let svg = code.to_svg_labelled("Scan \"me\" <now> & 'then'\n\u{1}ok");
        assert!(svg.contains(
            " role=\"img\" aria-label=\"Scan &quot;me&quot; &lt;now&gt; &amp; &#39;then&#39;&#10;ok\">"
        ), "{svg}");
        assert!(!svg.contains("aria-hidden"));
        let mut s = String::new();
        escape_attr("a\tb\rc\u{fffe}d\u{7f}é", &mut s);
        assert_eq!(s, "a&#9;b&#13;cd\u{7f}é");
    }

    #[test]
    fn pairing_codes_use_level_q_and_a_centred_odd_logo_area_of_at_most_22_percent() {
        assert_eq!(PAIRING_EC_LEVEL, Q, "level Q restores the codewords the logo hides");
        for version in MIN_VERSION..=MAX_VERSION {
            let size = usize::from(version) * 4 + 17;
            let (start, side) = logo_area(size);
            assert_eq!(side % 2, 1, "v{version}: odd, centred on a module");
            assert_eq!(start * 2 + side, size, "v{version}: centred");
            assert!(side * 100 <= size * LOGO_SIDE_PERCENT, "v{version}: {side} of {size}");
            assert!((side + 2) * 100 > size * LOGO_SIDE_PERCENT, "v{version}: as large as allowed");
            // Under 5 % of the symbol's area.
            assert!(side * side * 100 < size * size * 5, "v{version}");
        }
        // A pairing URI (~190 bytes) is version 12 at Q: 65 modules, a 13-module logo area.
        assert_eq!(logo_area(65), (26, 13));
    }

    #[test]
    fn svg_with_logo_area_leaves_exactly_the_centre_square_light_and_names_it() {
        for t in &texts() {
            let code = QrCode::encode(t.as_bytes(), PAIRING_EC_LEVEL).unwrap();
            let n = code.size();
            let (start, side) = logo_area(n);
            let svg = code.to_svg_with_logo_area(Some("Scan me"));
            let at = start + QUIET_ZONE;
            assert!(
                svg.starts_with(&format!(
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {v} {v}\" shape-rendering=\"crispEdges\" data-logo=\"{at} {at} {side}\" role=\"img\" aria-label=\"Scan me\"><path ",
                    v = n + 2 * QUIET_ZONE
                )),
                "{svg}"
            );
            let drawn = modules_from_svg(&svg, n);
            for y in 0..n {
                for x in 0..n {
                    let inside = (start..start + side).contains(&x) && (start..start + side).contains(&y);
                    let want = code.is_dark(x, y) && !inside;
                    assert_eq!(drawn[y * n + x], want, "{t}: module ({x}, {y})");
                }
            }
        }
        // Without a label it stays hidden from assistive technology.
        let code = QrCode::encode(b"wc:abc@2", PAIRING_EC_LEVEL).unwrap();
        assert!(code.to_svg_with_logo_area(None).contains("data-logo=\"13 13 3\" aria-hidden=\"true\">"));
    }

    #[test]
    fn every_symbol_has_its_finder_timing_and_dark_module() {
        for v in [1u8, 2, 7, 14, 27, 40] {
            let code = QrCode::encode_with(b"finder", H, v, None).unwrap();
            let n = code.size();
            for (ox, oy) in [(0, 0), (n - 7, 0), (0, n - 7)] {
                for y in 0..7 {
                    for x in 0..7 {
                        let ring = x == 0 || y == 0 || x == 6 || y == 6;
                        let centre = (2..5).contains(&x) && (2..5).contains(&y);
                        assert_eq!(code.is_dark(ox + x, oy + y), ring || centre);
                    }
                }
            }
            for i in 8..n - 8 {
                assert_eq!(code.is_dark(i, 6), i % 2 == 0);
                assert_eq!(code.is_dark(6, i), i % 2 == 0);
            }
            assert!(code.is_dark(8, n - 8));
            assert!(!code.is_dark(n, 0) && !code.is_dark(0, n));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn encoding_arbitrary_bytes_never_panics(
            data in prop_oneof![
                proptest::collection::vec(any::<u8>(), 0..300),
                proptest::collection::vec(any::<u8>(), 1200..3000),
            ],
            level in 0usize..4,
            mask in proptest::option::of(0u8..10),
            min_version in 0u8..42,
        ) {
            let ec = EcLevel::ALL[level];
            match QrCode::encode_with(&data, ec, min_version, mask) {
                Ok(code) => {
                    prop_assert!(data.len() <= capacity(code.version(), ec));
                    prop_assert!(code.version() >= min_version);
                    prop_assert_eq!(code.modules().len(), code.size() * code.size());
                    let svg = code.to_svg();
                    prop_assert_eq!(modules_from_svg(&svg, code.size()), code.modules());
                }
                Err(QrError::DataTooLong { len, max, .. }) => {
                    prop_assert_eq!(len, data.len());
                    prop_assert!(len > max);
                }
                Err(QrError::InvalidVersion(v)) => prop_assert!(v == 0 || v > 40),
                Err(QrError::InvalidMask(m)) => prop_assert!(m > 7),
            }
        }

        #[test]
        fn any_text_label_gives_an_attribute_without_raw_markup(label in any::<String>()) {
            let mut s = String::new();
            escape_attr(&label, &mut s);
            prop_assert!(!s.contains(['<', '>', '"', '\'']));
            let forbidden = s.chars().any(|c| c < ' ' || c == '\u{fffe}' || c == '\u{ffff}');
            prop_assert!(!forbidden);
            // Every '&' starts a reference.
            for (i, _) in s.match_indices('&') {
                let rest = &s[i..];
                prop_assert!(["&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&#9;", "&#10;", "&#13;"].iter().any(|r| rest.starts_with(r)));
            }
        }
    }
}
