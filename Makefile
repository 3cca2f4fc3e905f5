# The two commands for a new user:
#   make demo   install what is missing, build, run the demonstration
#   make test   install what is missing, build, run the whole test suite
BUILD ?= build
CMAKE_FLAGS ?=
JOBS ?= 2

.PHONY: all deps build python demo test install clean

all: build

deps:
	@sh scripts/install-deps.sh base
	@sh scripts/python-deps.sh $(BUILD)/pyenv

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLATTIO_PYTHON_TESTS=ON $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# the Python package (pyproject.toml) into the tests' virtual environment
python: build
	$(BUILD)/pyenv/bin/python3 -m pip install --quiet --disable-pip-version-check --no-build-isolation \
	  --no-deps --config-settings=build-dir=$(BUILD)/python .

demo: build python
	sh scripts/demo.sh $(BUILD)

# the cluster tests (label cluster) bring up 4 emulated nodes with GlusterFS
# themselves (CTest fixture cluster.up/cluster.down; docs/cluster.md)
test: build python
	@sh scripts/install-deps.sh test
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD)
