//! The built-in EVM networks (spec §1): the listed mainnets and the Sepolia testnet.

use crate::chain::family::{Builtin, ETH};

pub(super) const BUILTIN: [Builtin; 14] = [
    ("1", "Ethereum", ETH, "https://eth.merkle.io", ("Etherscan", "https://etherscan.io"), false),
    ("10", "OP Mainnet", ETH, "https://mainnet.optimism.io", ("Optimism Explorer", "https://optimistic.etherscan.io"), false),
    ("42161", "Arbitrum One", ETH, "https://arb1.arbitrum.io/rpc", ("Arbiscan", "https://arbiscan.io"), false),
    ("137", "Polygon", ("POL", "POL", 18), "https://polygon-rpc.com", ("PolygonScan", "https://polygonscan.com"), false),
    ("42220", "Celo", ("CELO", "CELO", 18), "https://forno.celo.org", ("Celo Explorer", "https://celoscan.io"), false),
    ("1313161554", "Aurora", ETH, "https://mainnet.aurora.dev", ("Aurorascan", "https://aurorascan.dev"), false),
    ("56", "BNB Smart Chain", ("BNB", "BNB", 18), "https://bsc-dataseed.bnbchain.org", ("BscScan", "https://bscscan.com"), false),
    ("43114", "Avalanche", ("Avalanche", "AVAX", 18), "https://api.avax.network/ext/bc/C/rpc", ("SnowTrace", "https://snowtrace.io"), false),
    ("324", "ZKsync Era", ETH, "https://mainnet.era.zksync.io", ("ZKsync Explorer", "https://explorer.zksync.io"), false),
    ("100", "Gnosis", ("xDAI", "XDAI", 18), "https://rpc.gnosischain.com", ("Gnosisscan", "https://gnosisscan.io"), false),
    ("8453", "Base", ETH, "https://mainnet.base.org", ("Basescan", "https://basescan.org"), false),
    ("250", "Fantom", ("Fantom", "FTM", 18), "https://rpc.ankr.com/fantom", ("FTMScan", "https://ftmscan.com"), false),
    ("8217", "Kaia", ("Kaia", "KAIA", 18), "https://public-en.node.kaia.io", ("KaiaScan", "https://kaiascan.io"), false),
    ("11155111", "Sepolia", ("Sepolia Ether", "ETH", 18), "https://sepolia.drpc.org", ("Etherscan", "https://sepolia.etherscan.io"), true),
];
