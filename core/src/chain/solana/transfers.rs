//! The Send form on Solana: the receiver is a 32-byte key in base58; SOL moves by the System
//! program's `Transfer`, an SPL token (Token or Token-2022, whichever owns the mint) by
//! `TransferChecked` between the sender's and the receiver's associated token accounts, the
//! receiver's created first (`CreateIdempotent`) when it has none — its rent is part of what the
//! preview shows as the fee. What the transaction needs from the chain is read with the fee:
//! a recent blockhash, the mint (its program and decimals), the receiver's token accounts, and
//! the rent of a token account.

use super::message::{find_program_address, message, to_base64, unsigned_transaction, Instruction, Meta};
use crate::chain::address::decode_solana_public_key;
use crate::chain::family::{Call, Transfers, WalletCall};
use crate::service::errors::WmError;
use crate::service::json::{obj, Value};

pub const SYSTEM_PROGRAM: [u8; 32] = [0; 32];
pub const TOKEN_PROGRAM: &str = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
pub const TOKEN_2022_PROGRAM: &str = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
pub const ASSOCIATED_TOKEN_PROGRAM: &str = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";
/// The fee of one signature (the base fee; the modal adds no priority fee).
pub const LAMPORTS_PER_SIGNATURE: u64 = 5_000;
/// The size of a token account: a Token one, a Token-2022 one (with the immutable-owner extension
/// an associated account has).
const TOKEN_ACCOUNT_SIZE: [u64; 2] = [165, 170];
/// The most decimals a mint can have that the modal accepts (SPL's field is a byte; no real token
/// has more than 18).
const MAX_DECIMALS: u64 = 18;

pub(super) struct Standard;

fn key(s: &str) -> Result<[u8; 32], WmError> {
    decode_solana_public_key(s).map_err(|_| WmError::InvalidAddress)
}

/// The associated token account of `owner` for `mint` under a token program.
pub fn associated_token_account(owner: &[u8; 32], mint: &[u8; 32], token_program: &[u8; 32]) -> Option<[u8; 32]> {
    find_program_address(&[owner, token_program, mint], &key(ASSOCIATED_TOKEN_PROGRAM).ok()?)
}

fn node(method: &'static str, params: Vec<Value>) -> Call {
    Call::Node(WalletCall::new(method, params))
}

fn confirmed(extra: Vec<(&'static str, Value)>) -> Value {
    let mut fields = vec![("commitment", "confirmed".into())];
    fields.extend(extra);
    obj(fields)
}

/// What the fee calls read that the transaction needs, checked.
struct Read {
    blockhash: [u8; 32],
    /// For a token: its program, decimals, and the receiver's account (and whether it exists).
    token: Option<TokenRead>,
}

struct TokenRead {
    program: [u8; 32],
    decimals: u8,
    receiver_account: [u8; 32],
    receiver_has_account: bool,
}

fn read(tx: &Value, answers: &[Value]) -> Result<Read, String> {
    let blockhash = answers
        .first()
        .and_then(|a| a.get("value")?.get("blockhash")?.as_str())
        .and_then(|h| decode_solana_public_key(h).ok())
        .ok_or("The network did not give a recent block to send with: try again")?; // i18n
    let Some(mint) = tx.get("mint").and_then(Value::as_str) else { return Ok(Read { blockhash, token: None }) };
    let mint = key(mint).map_err(|e| e.message())?;
    let to = key(tx["to"].as_str().unwrap_or_default()).map_err(|e| e.message())?;
    let info = answers.get(1).and_then(|a| a.get("value")).filter(|v| !v.is_null());
    let info = info.ok_or("The token's mint was not found on this network")?; // i18n
    let program = info.get("owner").and_then(Value::as_str).unwrap_or_default();
    let which = [TOKEN_PROGRAM, TOKEN_2022_PROGRAM].iter().position(|p| *p == program).ok_or("The token is not an SPL token (its mint is not owned by the Token or Token-2022 program)")?; // i18n
    let decimals = info
        .get("data")
        .and_then(|d| d.get("parsed")?.get("info")?.get("decimals")?.as_u64())
        .filter(|d| *d <= MAX_DECIMALS)
        .ok_or("The token's mint could not be read (or has more than 18 decimals)")?; // i18n
    let program = key(program).map_err(|e| e.message())?;
    let receiver_account = associated_token_account(&to, &mint, &program).ok_or("No token account address for this receiver")?; // i18n
    let accounts = answers.get(2).and_then(|a| a.get("value")?.as_array()).filter(|l| l.len() == 2);
    let accounts = accounts.ok_or("The receiver's token account could not be read")?; // i18n
    Ok(Read { blockhash, token: Some(TokenRead { program, decimals: decimals as u8, receiver_account, receiver_has_account: !accounts[which].is_null() }) })
}

impl Transfers for Standard {
    fn receiver_hint(&self) -> &'static str {
        "Solana address" // i18n
    }

    fn check_receiver(&self, to: &str) -> Result<(), String> {
        match decode_solana_public_key(to) {
            Ok(_) if to.len() >= 32 => Ok(()),
            _ => Err("The receiver address is not a Solana address (a 32-byte key in base58)".into()), // i18n
        }
    }

    /// `{from, to, amount, mint?}`: what to move; its transaction is built by
    /// [`Transfers::finish`] once the chain was read.
    fn transfer(&self, from: &str, to: &str, token: Option<&str>, value: &str) -> Result<Value, WmError> {
        key(from)?;
        key(to)?;
        let amount: u64 = value.parse().map_err(|_| WmError::InvalidValue { value: value.to_string() })?;
        let mut fields = vec![("from", from.into()), ("to", to.into()), ("amount", amount.to_string().into())];
        if let Some(mint) = token {
            // The API names a token `solana:<ref>:<mint>` or by its mint alone.
            let mint = mint.rsplit(':').next().unwrap_or(mint);
            key(mint)?;
            fields.push(("mint", mint.into()));
        }
        Ok(obj(fields))
    }

    fn fee_calls(&self, tx: &Value) -> Vec<Call> {
        let mut calls = vec![node("getLatestBlockhash", vec![confirmed(Vec::new())])];
        let (Some(mint), Some(to)) = (tx.get("mint").and_then(Value::as_str), tx.get("to").and_then(Value::as_str)) else { return calls };
        let (Ok(mint_key), Ok(to_key)) = (key(mint), key(to)) else { return calls };
        let accounts: Vec<Value> = [TOKEN_PROGRAM, TOKEN_2022_PROGRAM]
            .iter()
            .filter_map(|p| associated_token_account(&to_key, &mint_key, &key(p).ok()?))
            .map(|a| crate::chain::address::encode_base58(&a).into())
            .collect();
        calls.push(node("getAccountInfo", vec![mint.into(), confirmed(vec![("encoding", "jsonParsed".into())])]));
        calls.push(node("getMultipleAccounts", vec![Value::Array(accounts), confirmed(vec![("encoding", "base64".into())])]));
        calls.extend(TOKEN_ACCOUNT_SIZE.iter().map(|size| node("getMinimumBalanceForRentExemption", vec![(*size).into()])));
        calls
    }

    /// The signature's fee, and the rent of the receiver's token account when it is created.
    fn fee(&self, _tx: &Value, answers: &[Value]) -> Option<String> {
        // (The transfer is not needed to read the fee: a token's answers say it all.)
        let token = answers.len() > 1;
        let blockhash_ok = answers.first().and_then(|a| a.get("value")?.get("blockhash")?.as_str()).is_some();
        if !blockhash_ok {
            return None;
        }
        if !token {
            return Some(LAMPORTS_PER_SIGNATURE.to_string());
        }
        let program = answers.get(1)?.get("value")?.get("owner")?.as_str()?;
        let which = [TOKEN_PROGRAM, TOKEN_2022_PROGRAM].iter().position(|p| *p == program)?;
        let exists = !answers.get(2)?.get("value")?.as_array().filter(|l| l.len() == 2)?[which].is_null();
        let rent = if exists { 0 } else { answers.get(3 + which)?.as_u64()? };
        Some((LAMPORTS_PER_SIGNATURE + rent).to_string())
    }

    /// The rent of the receiver's token account, when the transfer creates it.
    fn fee_detail(&self, tx: &Value, answers: &[Value]) -> Option<(&'static str, String)> {
        let total: u64 = self.fee(tx, answers)?.parse().ok()?;
        (total > LAMPORTS_PER_SIGNATURE).then(|| ("the receiver's new token account", (total - LAMPORTS_PER_SIGNATURE).to_string())) // i18n
    }

    /// `{transaction}`: the unsigned wire transaction, in base64.
    fn finish(&self, tx: Value, answers: &[Value]) -> Result<Value, String> {
        let read = read(&tx, answers)?;
        let from = key(tx["from"].as_str().unwrap_or_default()).map_err(|e| e.message())?;
        let to = key(tx["to"].as_str().unwrap_or_default()).map_err(|e| e.message())?;
        let amount = tx["amount"].as_str().and_then(|a| a.parse::<u64>().ok());
        let amount = amount.ok_or("The amount is not a whole number of base units")?; // i18n
        let instructions = match read.token {
            None => vec![system_transfer(from, to, amount)],
            Some(t) => {
                let mint = key(tx["mint"].as_str().unwrap_or_default()).map_err(|e| e.message())?;
                let source = associated_token_account(&from, &mint, &t.program).ok_or("No token account address for the sender")?; // i18n
                let mut list = Vec::new();
                if !t.receiver_has_account {
                    list.push(create_associated_account(from, t.receiver_account, to, mint, t.program));
                }
                list.push(transfer_checked(t.program, source, mint, t.receiver_account, from, amount, t.decimals));
                list
            }
        };
        Ok(obj(vec![("transaction", to_base64(&unsigned_transaction(&message(from, &instructions, read.blockhash))).into())]))
    }

    fn max_reserve(&self) -> u64 {
        LAMPORTS_PER_SIGNATURE
    }
}

/// System program `Transfer` (instruction 2): `lamports` from `from` to `to`.
pub fn system_transfer(from: [u8; 32], to: [u8; 32], lamports: u64) -> Instruction {
    let mut data = 2u32.to_le_bytes().to_vec();
    data.extend_from_slice(&lamports.to_le_bytes());
    Instruction { program: SYSTEM_PROGRAM, accounts: vec![Meta::signer(from), Meta::writable(to)], data }
}

/// Associated Token Account program `CreateIdempotent` (instruction 1), paid by `payer`.
pub fn create_associated_account(payer: [u8; 32], account: [u8; 32], owner: [u8; 32], mint: [u8; 32], token_program: [u8; 32]) -> Instruction {
    let ata = key(ASSOCIATED_TOKEN_PROGRAM).expect("a constant key");
    Instruction {
        program: ata,
        accounts: vec![
            Meta::signer(payer),
            Meta::writable(account),
            Meta::readonly(owner),
            Meta::readonly(mint),
            Meta::readonly(SYSTEM_PROGRAM),
            Meta::readonly(token_program),
        ],
        data: vec![1],
    }
}

/// Token program `TransferChecked` (instruction 12): `amount` base units of `mint` with its
/// `decimals`, signed by `owner`.
pub fn transfer_checked(program: [u8; 32], source: [u8; 32], mint: [u8; 32], destination: [u8; 32], owner: [u8; 32], amount: u64, decimals: u8) -> Instruction {
    let mut data = vec![12];
    data.extend_from_slice(&amount.to_le_bytes());
    data.push(decimals);
    Instruction {
        program,
        accounts: vec![Meta::writable(source), Meta::readonly(mint), Meta::writable(destination), Meta { key: owner, signer: true, writable: false }],
        data,
    }
}
