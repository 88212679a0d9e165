# AttnScope: `make run` opens the app, `make test` runs every test. Both install what is missing
# from Debian 12 packages first (idempotent: dpkg -s decides), then configure and build Release.

PACKAGES := cmake g++ make ccache qt6-base-dev qt6-base-dev-tools libqcustomplot-dev \
            libqcustomplot2.1-qt6 libtorch-dev libopenblas0-openmp libblas-dev qt6-svg-dev \
            libdnnl-dev help2man dpkg-dev
# What the tests check the package with: desktop-file-validate, appstreamcli and update-mime-database.
TEST_PACKAGES := desktop-file-utils appstream shared-mime-info
BUILD    ?= build
JOBS     ?= $(shell nproc)
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test build deps test-deps bench clean default-model package

run: build
	$(BUILD)/app/attnscope

test: build test-deps
	cd $(BUILD) && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j $(JOBS)

# attnscope_<version>_amd64.deb in $(BUILD): `apt-get install ./attnscope_*.deb` (README "Install").
package: build
	cd $(BUILD) && cpack -G DEB

bench: build
	$(BUILD)/app/attnscope bench

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@$(MAKE) --no-print-directory install-missing WANTED="$(PACKAGES)"

test-deps:
	@$(MAKE) --no-print-directory install-missing WANTED="$(TEST_PACKAGES)"

# Installs those of WANTED that dpkg does not know as installed.
install-missing:
	@missing=""; for p in $(WANTED); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	fi

# The model bundled into the app (resources/models/default.ckpt), trained by the CLI itself.
default-model: build
	$(BUILD)/app/attnscope train --out $(BUILD)/default-model --embed 64 --hidden 128 --epochs 12 --seed 42
	mkdir -p resources/models && cp $(BUILD)/default-model/model.ckpt resources/models/default.ckpt

clean:
	rm -rf $(BUILD)

# --- Robustness checks (docs/robustness.md) -----------------------------------------------------
# `make test-sanitize`: engine and its tests under AddressSanitizer + UBSan (gcc). LibTorch itself is
# not instrumented; tests/sanitize/ holds the options and the suppressions for its known leaks.
SANITIZE_BUILD ?= build-sanitize
SANITIZE_UNITS ?= tokenizer vocabulary dataset checkpoint atomicsave adam gradientclipping maskedloss \
                  grustep encoder bahdanauattention decoder seq2seqmodel trainer outputlayerpasses pca
SANITIZE_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
SANITIZE_ENV   := ASAN_OPTIONS=$$(cat $(CURDIR)/tests/sanitize/asan.options) \
                  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitize/lsan.supp:print_suppressions=0 \
                  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# `make fuzz`: libFuzzer targets under tests/fuzz/, clang only, each run for FUZZ_SECONDS.
FUZZ_BUILD     ?= build-fuzz
FUZZ_SECONDS   ?= 120
FUZZ_TARGETS   := tokenizer corpus checkpoint

.PHONY: test-sanitize fuzz install-missing

test-sanitize: deps
	cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
	  -DCMAKE_CXX_FLAGS="$(SANITIZE_FLAGS)" -DATTNSCOPE_TEST_UNITS="$(subst $(eval) ,;,$(strip $(SANITIZE_UNITS)))" \
	  -DATTNSCOPE_TEST_LINK=ui
	cmake --build $(SANITIZE_BUILD) -j $(JOBS) --target attnscope_tests
	cd $(SANITIZE_BUILD) && $(SANITIZE_ENV) QT_QPA_PLATFORM=offscreen \
	  ctest --output-on-failure -j $(JOBS) -R '^($(subst $(eval) ,|,$(strip $(SANITIZE_UNITS))))$$'

fuzz: deps
	@$(MAKE) --no-print-directory install-missing WANTED="clang libclang-rt-14-dev"
	CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTNSCOPE_FUZZ=ON \
	  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer"
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/crashes/$$t; \
	  echo "== fuzz_$$t for $(FUZZ_SECONDS) s"; \
	  $(FUZZ_BUILD)/tests/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_BUILD)/crashes/$$t/ $(FUZZ_BUILD)/corpus/$$t tests/fuzz/seeds/$$t || exit 1; \
	done
