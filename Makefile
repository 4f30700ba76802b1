# wallet-modal — two commands do everything on a fresh clone:
#   make demo   install, build, start two anvil chains and the local backend, print the URL
#   make test   install, build, run every suite (cargo, node, browser) and print `N passed, N failed`
#   make devnet the offline stack for a dapp's own tests (devnet/: npx wallet-modal-devnet)
.PHONY: setup build demo devnet test test-cargo test-node test-browser size bench clean

setup:
	@bash scripts/tools.sh

build: setup
	@node scripts/build.mjs

demo: build
	@bash scripts/demo.sh

devnet: build
	@node devnet/cli.mjs

test: build
	@bash scripts/test.sh

size: build
	@node scripts/size.mjs

bench: build
	@bash scripts/bench.sh

clean:
	rm -rf dist element/pkg target .test-build
