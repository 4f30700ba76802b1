//! Bitcoin transfers as the wallet signs them: the outputs a payment spends (largest first, at the
//! fee rate asked, change back to the payer unless it would be dust), written as an unsigned PSBT
//! (BIP-174 version 0: the unsigned transaction, each input's witness UTXO), and a PSBT's outputs
//! checked against what the visitor asked before it goes to the wallet: one that pays anyone else
//! is refused. For single-key segwit payers (P2WPKH, taproot key path).

/// An unspent output the payer holds (as Esplora's `/address/{a}/utxo` lists it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Utxo {
    /// The transaction id as written (hex, big-endian display order).
    pub txid: String,
    pub vout: u32,
    pub value: u64,
}

/// What a transfer spends and pays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub inputs: Vec<Utxo>,
    /// The receiver's script and amount, then the change's (to the payer), if any.
    pub outputs: Vec<(Vec<u8>, u64)>,
    pub fee: u64,
}

/// Outputs below this many satoshis are not made (change that small goes to the fee).
pub const DUST: u64 = 546;
/// At most this many outputs are spent by one transfer.
pub const MAX_INPUTS: usize = 200;

/// Picks the outputs that pay `amount` to `to` from `from` (its script) at `rate` sat/vB.
pub fn plan(utxos: &[Utxo], from: &[u8], to: &[u8], amount: u64, rate: f64) -> Result<Plan, String> {
    if amount < DUST {
        let dust = DUST;
        return Err(format!("The amount is below Bitcoin's dust limit ({dust} satoshis)")); // i18n
    }
    if !(rate.is_finite() && rate > 0.0 && rate <= 10_000.0) {
        return Err("The fee rate is not one (1 to 10,000 sat/vB)".into()); // i18n
    }
    let mut sorted: Vec<&Utxo> = utxos.iter().collect();
    sorted.sort_by(|a, b| b.value.cmp(&a.value));
    let fee_for = |n: usize, outs: &[&[u8]]| (vsize(n, outs) as f64 * rate).ceil() as u64;
    let mut inputs = Vec::new();
    let mut total: u64 = 0;
    for u in sorted.into_iter().take(MAX_INPUTS) {
        inputs.push(u.clone());
        total = total.saturating_add(u.value);
        let with_change = fee_for(inputs.len(), &[to, from]);
        if total >= amount.saturating_add(with_change) {
            let change = total - amount - with_change;
            if change >= DUST {
                return Ok(Plan { inputs, outputs: vec![(to.to_vec(), amount), (from.to_vec(), change)], fee: with_change });
            }
            // No change output: what is left goes to the fee.
            return Ok(Plan { inputs, outputs: vec![(to.to_vec(), amount)], fee: total - amount });
        }
        let without = fee_for(inputs.len(), &[to]);
        if total >= amount.saturating_add(without) && total - amount - without < DUST {
            return Ok(Plan { inputs, outputs: vec![(to.to_vec(), amount)], fee: total - amount });
        }
    }
    Err("Insufficient balance to pay the amount and the network fee".into()) // i18n
}

/// The virtual size of a transaction spending `inputs` P2WPKH outputs to `outputs` (scripts): its
/// base bytes plus a quarter of its witness bytes, rounded up (a taproot input is smaller).
fn vsize(inputs: usize, outputs: &[&[u8]]) -> u64 {
    let out: u64 = outputs.iter().map(|s| 9 + s.len() as u64).sum();
    // Base: version 4 + counts 2 + lock time 4 + per input 41; witness: marker 2 + per input 108.
    let base = 10 + 41 * inputs as u64 + out;
    let witness = 2 + 108 * inputs as u64;
    (4 * base + witness).div_ceil(4)
}

fn push_varint(out: &mut Vec<u8>, n: usize) {
    if n < 0xfd {
        out.push(n as u8);
    } else {
        out.push(0xfd);
        out.extend_from_slice(&(n as u16).to_le_bytes());
    }
}

fn txid_bytes(txid: &str) -> Option<[u8; 32]> {
    if txid.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        // Written big-endian; serialized little-endian.
        *b = u8::from_str_radix(txid.get(62 - 2 * i..64 - 2 * i)?, 16).ok()?;
    }
    Some(out)
}

/// The unsigned PSBT (BIP-174 v0) of a plan, each input's witness UTXO paying `from`.
pub fn unsigned_psbt(plan: &Plan, from: &[u8]) -> Result<Vec<u8>, String> {
    let mut tx = Vec::with_capacity(64 + 41 * plan.inputs.len());
    tx.extend_from_slice(&2u32.to_le_bytes());
    push_varint(&mut tx, plan.inputs.len());
    for u in &plan.inputs {
        tx.extend_from_slice(&txid_bytes(&u.txid).ok_or("An output's transaction id is not 64 hex digits")?); // i18n
        tx.extend_from_slice(&u.vout.to_le_bytes());
        tx.push(0);
        tx.extend_from_slice(&0xffff_ffffu32.to_le_bytes());
    }
    push_varint(&mut tx, plan.outputs.len());
    for (script, value) in &plan.outputs {
        tx.extend_from_slice(&value.to_le_bytes());
        push_varint(&mut tx, script.len());
        tx.extend_from_slice(script);
    }
    tx.extend_from_slice(&0u32.to_le_bytes());
    let mut out = b"psbt\xff".to_vec();
    out.extend_from_slice(&[0x01, 0x00]);
    push_varint(&mut out, tx.len());
    out.extend_from_slice(&tx);
    out.push(0);
    for u in &plan.inputs {
        let mut utxo = u.value.to_le_bytes().to_vec();
        push_varint(&mut utxo, from.len());
        utxo.extend_from_slice(from);
        out.extend_from_slice(&[0x01, 0x01]);
        push_varint(&mut out, utxo.len());
        out.extend_from_slice(&utxo);
        out.push(0);
    }
    out.extend(std::iter::repeat_n(0u8, plan.outputs.len()));
    Ok(out)
}

/// Reads a PSBT or a transaction, every length checked against what is left.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

fn bad() -> String {
    "Not a PSBT".to_string() // i18n
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let s = self.bytes.get(self.at..self.at.checked_add(n).ok_or_else(bad)?).ok_or_else(bad)?;
        self.at += n;
        Ok(s)
    }

    fn byte(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    /// A compact size (at most 4 bytes' worth: nothing here is larger).
    fn varint(&mut self) -> Result<usize, String> {
        match self.byte()? {
            0xfd => Ok(u16::from_le_bytes(self.take(2)?.try_into().map_err(|_| bad())?) as usize),
            0xfe => Ok(u32::from_le_bytes(self.take(4)?.try_into().map_err(|_| bad())?) as usize),
            0xff => Err(bad()),
            n => Ok(n as usize),
        }
    }

    /// One key-value record of a map; `None` at the map's end.
    fn record(&mut self) -> Result<Option<(&'a [u8], &'a [u8])>, String> {
        let len = self.varint()?;
        if len == 0 {
            return Ok(None);
        }
        let key = self.take(len)?;
        let len = self.varint()?;
        Ok(Some((key, self.take(len)?)))
    }
}

/// The most inputs or outputs a PSBT read here may have, and records one map may hold.
const MAX_ITEMS: usize = 1_000;
const MAX_RECORDS: usize = 64;

/// A transaction's inputs and outputs counts and outputs (script, value), from its unsigned
/// serialisation (no witness), which must be read to its end.
fn read_tx(tx: &[u8]) -> Result<(usize, Vec<(Vec<u8>, u64)>), String> {
    let mut r = Reader { bytes: tx, at: 4 };
    let inputs = r.varint()?;
    if inputs == 0 || inputs > MAX_ITEMS {
        return Err(bad());
    }
    for _ in 0..inputs {
        r.take(36)?;
        let script = r.varint()?;
        r.take(script + 4)?;
    }
    let count = r.varint()?;
    if count > MAX_ITEMS {
        return Err(bad());
    }
    let mut outs = Vec::with_capacity(count);
    for _ in 0..count {
        let value = u64::from_le_bytes(r.take(8)?.try_into().map_err(|_| bad())?);
        let script = r.varint()?;
        outs.push((r.take(script)?.to_vec(), value));
    }
    r.take(4)?;
    if r.at != tx.len() {
        return Err(bad());
    }
    Ok((inputs, outs))
}

/// A PSBT's unsigned transaction and each input's records (key, value).
#[allow(clippy::type_complexity)]
fn read_psbt(psbt: &[u8]) -> Result<(&[u8], Vec<Vec<(&[u8], &[u8])>>), String> {
    let rest = psbt.strip_prefix(b"psbt\xff").ok_or_else(bad)?;
    let mut r = Reader { bytes: rest, at: 0 };
    let mut tx = None;
    for _ in 0..=MAX_RECORDS {
        match r.record()? {
            Some((key, value)) if key == [0x00] => tx = Some(value),
            Some(_) => {}
            None => break,
        }
    }
    let tx = tx.ok_or_else(bad)?;
    let (inputs, outputs) = read_tx(tx)?;
    let mut maps = Vec::with_capacity(inputs);
    for i in 0..inputs + outputs.len() {
        let mut map = Vec::new();
        while let Some(record) = r.record()? {
            if map.len() == MAX_RECORDS {
                return Err(bad());
            }
            map.push(record);
        }
        if i < inputs {
            maps.push(map);
        }
    }
    if r.at != rest.len() {
        return Err(bad());
    }
    Ok((tx, maps))
}

/// The outputs of a PSBT's unsigned transaction (script, value); `Err` when it is not a PSBT.
pub fn psbt_outputs(psbt: &[u8]) -> Result<Vec<(Vec<u8>, u64)>, String> {
    read_tx(read_psbt(psbt)?.0).map(|(_, outs)| outs)
}

/// The witness of an input the wallet signed: its final witness (BIP-174 `0x08`), else one made
/// from its signature: a P2WPKH one (`0x02`: signature, key) or a taproot key-path one (`0x13`).
fn witness(map: &[(&[u8], &[u8])]) -> Option<Vec<u8>> {
    let find = |t: u8| map.iter().find(|(k, _)| k.first() == Some(&t));
    if let Some((_, w)) = find(0x08) {
        return Some(w.to_vec());
    }
    let mut items: Vec<&[u8]> = Vec::new();
    if let Some((key, sig)) = find(0x02).filter(|(k, _)| k.len() == 34) {
        items.extend([*sig, &key[1..]]);
    } else if let Some((_, sig)) = find(0x13).filter(|(_, s)| matches!(s.len(), 64 | 65)) {
        items.push(sig);
    } else {
        return None;
    }
    let mut out = Vec::new();
    push_varint(&mut out, items.len());
    for item in items {
        push_varint(&mut out, item.len());
        out.extend_from_slice(item);
    }
    Some(out)
}

/// The transaction a wallet signed, ready to broadcast (hex), and its id: `Err(why)` when the
/// wallet signed another transaction than `approved` (the PSBT the visitor approved), or left an
/// input unsigned.
pub fn signed_transaction(signed: &[u8], approved: &[u8]) -> Result<(String, String), String> {
    let (tx, maps) = read_psbt(signed).map_err(|_| "The wallet did not answer a signed PSBT".to_string())?; // i18n
    if read_psbt(approved)?.0 != tx {
        return Err("The wallet signed another transaction than the one you approved".into()); // i18n
    }
    let mut raw = Vec::with_capacity(signed.len());
    raw.extend_from_slice(&tx[..4]);
    raw.extend_from_slice(&[0x00, 0x01]);
    raw.extend_from_slice(&tx[4..tx.len() - 4]);
    for (input, map) in maps.iter().enumerate() {
        raw.extend(witness(map).ok_or_else(|| format!("The wallet did not sign the transaction (input {input} has no signature)"))?); // i18n
    }
    raw.extend_from_slice(&tx[tx.len() - 4..]);
    let id = super::address::sha256d(tx);
    Ok((hex(&raw), id.iter().rev().map(|b| format!("{b:02x}")).collect()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Refuses a PSBT that pays anything but `amount` to `to` and change to `from` (before it goes
/// to the wallet: a page or a wallet must not make the visitor sign a payment they did not ask).
pub fn check_psbt(psbt: &[u8], from: &[u8], to: &[u8], amount: u64) -> Result<(), String> {
    let outs = psbt_outputs(psbt)?;
    let paid: u64 = outs.iter().filter(|(s, _)| s == to).map(|(_, v)| *v).sum();
    if outs.iter().any(|(s, _)| s != to && s != from) {
        return Err("The transaction pays an address you did not ask to pay".into()); // i18n
    }
    if paid != amount {
        return Err("The transaction pays another amount than the one asked".into()); // i18n
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    const FROM: &str = "00146ffb31deb300af565f6cd11db6267bb0eedc7f8b";
    const TXID: &str = "dcc4d582381f2b7d61c022910ba7208dbe70661e42ff1ba7690cddb84fe4b302";
    /// @scure/btc-signer 2.4.1: one 50 BTC input, 0.01 BTC to 0x0014 11…11, 49.98998 back.
    pub const SCURE: &str = "70736274ff010071020000000102b3e44fb8dd0c69a71bff421e6670be8d20a70b9122c0617d2b1f3882d5c4dc0000000000ffffffff0240420f00000000001600141111111111111111111111111111111111111111f0a7f629010000001600146ffb31deb300af565f6cd11db6267bb0eedc7f8b000000000001011f00f2052a010000001600146ffb31deb300af565f6cd11db6267bb0eedc7f8b000000";

    fn to() -> Vec<u8> {
        unhex(&format!("0014{}", "11".repeat(20)))
    }

    #[test]
    fn the_unsigned_psbt_is_the_one_scure_btc_signer_writes() {
        let plan = Plan { inputs: vec![Utxo { txid: TXID.into(), vout: 0, value: 5_000_000_000 }], outputs: vec![(to(), 1_000_000), (unhex(FROM), 4_998_998_000)], fee: 2_000 };
        assert_eq!(unsigned_psbt(&plan, &unhex(FROM)).unwrap(), unhex(SCURE));
        assert_eq!(psbt_outputs(&unhex(SCURE)).unwrap(), plan.outputs);
    }

    /// The same PSBT signed by @scure/btc-signer with the demo wallet's key (`signIdx`), then
    /// finalized, and the transaction it extracts, with its id.
    pub const SCURE_SIGNED: &str = "70736274ff010071020000000102b3e44fb8dd0c69a71bff421e6670be8d20a70b9122c0617d2b1f3882d5c4dc0000000000ffffffff0240420f00000000001600141111111111111111111111111111111111111111f0a7f629010000001600146ffb31deb300af565f6cd11db6267bb0eedc7f8b000000000001011f00f2052a010000001600146ffb31deb300af565f6cd11db6267bb0eedc7f8b220203fdbad05a5e2681ff21f6b5f637d23da64f9e899ba5969a221ec984f4775cf9eb4730440220136a04b8f37ae567cda8d7acc8e6425291c06b99dc8cae8fb9bb267f6bc0a5c602206d02702d1997a61027dd70a160afff8070f77ae9325802bd975e178c047abd1c01000000";
    const SCURE_FINAL: &str = "70736274ff010071020000000102b3e44fb8dd0c69a71bff421e6670be8d20a70b9122c0617d2b1f3882d5c4dc0000000000ffffffff0240420f00000000001600141111111111111111111111111111111111111111f0a7f629010000001600146ffb31deb300af565f6cd11db6267bb0eedc7f8b000000000001011f00f2052a010000001600146ffb31deb300af565f6cd11db6267bb0eedc7f8b01086b024730440220136a04b8f37ae567cda8d7acc8e6425291c06b99dc8cae8fb9bb267f6bc0a5c602206d02702d1997a61027dd70a160afff8070f77ae9325802bd975e178c047abd1c012103fdbad05a5e2681ff21f6b5f637d23da64f9e899ba5969a221ec984f4775cf9eb000000";
    pub const SCURE_RAW: &str = "0200000000010102b3e44fb8dd0c69a71bff421e6670be8d20a70b9122c0617d2b1f3882d5c4dc0000000000ffffffff0240420f00000000001600141111111111111111111111111111111111111111f0a7f629010000001600146ffb31deb300af565f6cd11db6267bb0eedc7f8b024730440220136a04b8f37ae567cda8d7acc8e6425291c06b99dc8cae8fb9bb267f6bc0a5c602206d02702d1997a61027dd70a160afff8070f77ae9325802bd975e178c047abd1c012103fdbad05a5e2681ff21f6b5f637d23da64f9e899ba5969a221ec984f4775cf9eb00000000";
    const SCURE_ID: &str = "9a2e28b110eeaf7e45570c4412b37f48fe71d70656e179e70d64f0f8888f3802";

    #[test]
    fn a_psbt_the_wallet_signed_becomes_the_transaction_scure_btc_signer_extracts() {
        let (raw, id) = signed_transaction(&unhex(SCURE_SIGNED), &unhex(SCURE)).unwrap();
        assert_eq!((raw.as_str(), id.as_str()), (SCURE_RAW, SCURE_ID), "from the partial signature");
        let (raw, id) = signed_transaction(&unhex(SCURE_FINAL), &unhex(SCURE)).unwrap();
        assert_eq!((raw.as_str(), id.as_str()), (SCURE_RAW, SCURE_ID), "from a finalized input");
    }

    #[test]
    fn a_signed_psbt_of_another_transaction_or_without_a_signature_is_not_sent() {
        let other = Plan { inputs: vec![Utxo { txid: TXID.into(), vout: 0, value: 5_000_000_000 }], outputs: vec![(to(), 2_000_000), (unhex(FROM), 4_997_998_000)], fee: 2_000 };
        let approved = unsigned_psbt(&other, &unhex(FROM)).unwrap();
        assert_eq!(signed_transaction(&unhex(SCURE_SIGNED), &approved).unwrap_err(), "The wallet signed another transaction than the one you approved");
        assert_eq!(signed_transaction(&unhex(SCURE), &unhex(SCURE)).unwrap_err(), "The wallet did not sign the transaction (input 0 has no signature)");
        assert_eq!(signed_transaction(b"psbt\xff\x01", &unhex(SCURE)).unwrap_err(), "The wallet did not answer a signed PSBT");
        // Every truncation of a signed PSBT is refused, none panics.
        let signed = unhex(SCURE_SIGNED);
        for n in 0..signed.len() - 1 {
            assert!(signed_transaction(&signed[..n], &unhex(SCURE)).is_err(), "cut at {n}");
        }
        // A length that claims more than there is.
        let mut huge = b"psbt\xff".to_vec();
        huge.extend_from_slice(&[0x01, 0x00, 0xfe, 0xff, 0xff, 0xff, 0x7f]);
        assert_eq!(psbt_outputs(&huge).unwrap_err(), "Not a PSBT");
    }

    #[test]
    fn a_plan_spends_the_largest_outputs_first_pays_the_fee_at_the_rate_and_returns_change() {
        let utxos = [Utxo { txid: TXID.into(), vout: 0, value: 30_000 }, Utxo { txid: TXID.into(), vout: 1, value: 5_000_000 }];
        let p = plan(&utxos, &unhex(FROM), &to(), 1_000_000, 2.0).unwrap();
        assert_eq!(p.inputs.len(), 1, "the 0.05 BTC output alone pays");
        assert_eq!(p.inputs[0].vout, 1);
        // One P2WPKH input, two P2WPKH outputs: 141 vB at 2 sat/vB.
        assert_eq!(p.fee, 282);
        assert_eq!(p.outputs, vec![(to(), 1_000_000), (unhex(FROM), 5_000_000 - 1_000_000 - 282)]);
        let all = plan(&utxos, &unhex(FROM), &to(), 5_010_000, 1.0).unwrap();
        assert_eq!(all.inputs.len(), 2, "both when one is not enough");
        let exact = plan(&utxos[1..], &unhex(FROM), &to(), 5_000_000 - 200, 1.0).unwrap();
        assert_eq!(exact.outputs.len(), 1, "change below dust goes to the fee");
        assert_eq!(exact.fee, 200);
        assert!(plan(&utxos, &unhex(FROM), &to(), 6_000_000, 1.0).unwrap_err().contains("Insufficient"));
        assert!(plan(&utxos, &unhex(FROM), &to(), 100, 1.0).unwrap_err().contains("dust"));
        assert!(plan(&utxos, &unhex(FROM), &to(), 10_000, f64::NAN).is_err());
    }

    #[test]
    fn ten_thousand_outputs_are_planned_without_a_hang_and_at_most_200_are_spent() {
        let utxos: Vec<Utxo> = (0..10_000).map(|i| Utxo { txid: TXID.into(), vout: i, value: 10_000 }).collect();
        let p = plan(&utxos, &unhex(FROM), &to(), 1_000_000, 1.0).unwrap();
        assert!(p.inputs.len() <= MAX_INPUTS && p.inputs.len() > 100);
        assert!(plan(&utxos, &unhex(FROM), &to(), 3_000_000, 1.0).is_err(), "more than 200 outputs' worth is refused");
    }

    #[test]
    fn a_psbt_paying_someone_else_or_another_amount_is_refused_before_the_wallet() {
        let psbt = unhex(SCURE);
        assert_eq!(check_psbt(&psbt, &unhex(FROM), &to(), 1_000_000), Ok(()));
        let other = unhex(&format!("0014{}", "22".repeat(20)));
        assert_eq!(check_psbt(&psbt, &unhex(FROM), &other, 1_000_000).unwrap_err(), "The transaction pays an address you did not ask to pay");
        assert_eq!(check_psbt(&psbt, &unhex(FROM), &to(), 2_000_000).unwrap_err(), "The transaction pays another amount than the one asked");
        assert_eq!(psbt_outputs(b"nope").unwrap_err(), "Not a PSBT");
        assert!(psbt_outputs(&psbt[..40]).is_err(), "truncated");
    }
}
