# AttnScope: `make run` opens the app, `make test` runs every test. Both install what is missing
# from Debian 12 packages first (idempotent: dpkg -s decides), then configure and build Release.

PACKAGES := cmake g++ make ccache qt6-base-dev qt6-base-dev-tools libqcustomplot-dev \
            libqcustomplot2.1-qt6 libtorch-dev libopenblas0-openmp
BUILD    ?= build
JOBS     ?= $(shell nproc)
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test build deps bench clean default-model

run: build
	$(BUILD)/app/attnscope

test: build
	cd $(BUILD) && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j $(JOBS)

bench: build
	$(BUILD)/app/attnscope bench

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@missing=""; for p in $(PACKAGES); do \
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
