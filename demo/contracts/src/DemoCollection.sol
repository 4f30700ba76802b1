// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// The demo's ERC-721 collection. `tokenURI(id)` is `baseURI + id`: the demo backend serves the JSON
/// metadata there (`GET /demo-nft/{id}`), whose `image` is an SVG it also serves.
contract DemoCollection is ERC721, Ownable {
    string private _base;
    uint256 public nextId = 1;

    constructor(string memory name_, string memory symbol_, string memory baseURI_)
        ERC721(name_, symbol_)
        Ownable(msg.sender)
    {
        _base = baseURI_;
    }

    function _baseURI() internal view override returns (string memory) {
        return _base;
    }

    /// Lets a redeployed backend (another port) point the collection at itself.
    function setBaseURI(string calldata baseURI_) external onlyOwner {
        _base = baseURI_;
    }

    function mint(address to) external onlyOwner returns (uint256 id) {
        id = nextId++;
        _mint(to, id);
    }
}
