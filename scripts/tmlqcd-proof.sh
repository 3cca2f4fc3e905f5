#!/bin/sh
# tmlqcd-proof.sh [BUILD [TMLQCD_SRC [CLIME_SRC [LEMON_SRC]]]] -- build ETMC's
# tmLQCD, unchanged, from its public source through its own CMake route
# (TM_USE_MPI, TM_USE_LEMON, CMAKE_PREFIX_PATH) twice: on the lattio of
# BUILD (default build) and on real C-LIME + Lemon.  Then, at 1, 2 and 4 ranks:
# hmc_tm (4^3x8, 3 trajectories, 64-bit configurations) and invert (12
# point-source components in one file: a one-flavour propagator at 64 bits
# and a two-flavour one at 32) on both; every file compared record by
# record with real Lemon's (scripts/tmlqcd-compare.py: clock lines aside);
# each configuration read back by invert at the other two rank counts
# (tmLQCD checks its checksums and prints its plaquette; each writes a
# one-component propagator file, tmLQCD's split layout); `lattio verify`
# and `lattio check` on every file.
# *_SRC: a git repository (default: github's, which needs the network).
# Work and logs in BUILD/tmlqcd-proof; prints one line per check and
# exits non-zero when any failed.  Not part of the suite: tmLQCD is no
# dependency of lattio; the last result is in bench/results/.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
tm_src=${2:-https://github.com/etmc/tmLQCD.git}
clime_src=${3:-https://github.com/usqcd-software/c-lime.git}
lemon_src=${4:-https://github.com/etmc/lemon.git}
work=$build/tmlqcd-proof
sh "$here/scripts/install-deps.sh" tmlqcd
rm -rf "$work"
mkdir -p "$work/runs"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
lattio=$build/bin/lattio
compare=$here/scripts/tmlqcd-compare.py
fails=0
pass() { echo "ok: $*"; }
fail() { echo "FAILED: $*"; fails=$((fails + 1)); }

# tmLQCD asks for CMake >= 3.26 (Debian 12 has 3.25): PyPI's, in a venv
cmake_tm=cmake
if ! cmake --version | awk 'NR==1 { split($3, v, "."); exit !(v[1] > 3 || (v[1] == 3 && v[2] >= 26)) }'; then
  python3 -m venv "$work/venv"
  "$work/venv/bin/pip" install --quiet --disable-pip-version-check 'cmake>=3.26,<5'
  cmake_tm=$work/venv/bin/cmake
fi

# sources without tmLQCD's documentation and profiling logs (large, unused)
clone() {
  git clone --quiet --no-checkout "$1" "$2"
  git -C "$2" sparse-checkout set --no-cone '/*' '!/doc/' '!/profiling/'
  git -C "$2" checkout --quiet
}
clone "$tm_src" "$work/tmlqcd-src"
clone "$clime_src" "$work/clime-src"
clone "$lemon_src" "$work/lemon-src"

echo "== building (logs in $work)"
cmake --install "$build" --prefix "$work/lattio" >"$work/lattio-install.log"
for lib in clime lemon; do
  cmake -S "$work/$lib-src" -B "$work/$lib-build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/real" \
        -DCMAKE_INSTALL_PREFIX="$work/real" >"$work/$lib.log" 2>&1
  cmake --build "$work/$lib-build" -j 2 >>"$work/$lib.log" 2>&1
  cmake --install "$work/$lib-build" >>"$work/$lib.log" 2>&1
done
tmlqcd() { # NAME PREFIX LEMON
  "$cmake_tm" -S "$work/tmlqcd-src" -B "$work/tm-$1" -DCMAKE_BUILD_TYPE=Release -DTM_USE_MPI=ON -DTM_USE_OMP=OFF \
      -DTM_USE_LEMON="$3" -DCMAKE_PREFIX_PATH="$2" -DFETCHCONTENT_FULLY_DISCONNECTED=ON >"$work/tm-$1.log" 2>&1
  "$cmake_tm" --build "$work/tm-$1" -j 2 >>"$work/tm-$1.log" 2>&1
}
tmlqcd lattio "$work/lattio" ON
tmlqcd real "$work/real" ON
bin() { echo "$work/tm-$1/src/bin/$2"; }
if nm "$(bin lattio hmc_tm)" | grep -q ' T lattio_' && ! nm "$(bin real hmc_tm)" | grep -q ' T lattio_'; then
  pass "tmLQCD's CMake found lattio's Lemon and C-LIME (hmc_tm holds lattio's code; the real build none)"
else
  fail "linkage: the lattio build does not hold lattio, or the real one does"
fi

hmc_input() { # L T
  cat <<EOF
L=$1
T=$2
Measurements = 3
StartCondition = hot
InitialStoreCounter = 0
NSave = 1
Seed = 12345
ReproduceRandomNumbers = yes
2KappaMu = 0.177
kappa = 0.177
ThetaT = 1
UseEvenOdd = yes
DebugLevel = 1
GaugeConfigWritePrecision = 64
BeginMonomial GAUGE
  Type = Wilson
  beta = 6.00
  Timescale = 0
EndMonomial
BeginMonomial DET
  Timescale = 1
  2KappaMu = 0.177
  kappa = 0.177
  AcceptancePrecision = 1e-20
  ForcePrecision = 1e-12
  Name = det
  Solver = CG
EndMonomial
BeginIntegrator
  Type0 = 2MN
  Type1 = 2MN
  IntegrationSteps0 = 2
  IntegrationSteps1 = 4
  Tau = 1
  Lambda0 = 0.19
  Lambda1 = 0.20
  NumberOfTimescales = 2
EndIntegrator
EOF
}
invert_input() { # L T INDICES SPLIT TYPE
  cat <<EOF
L=$1
T=$2
DebugLevel = 1
InitialStoreCounter = 1
Measurements = 1
kappa = 0.177
ThetaT = 1
GaugeConfigInputFile = conf
UseEvenOdd = yes
SourceType = Point
Indices = $3
SplittedPropagator = $4
PropagatorType = $5
ReadSource = no
Seed = 4321
BeginOperator TMWILSON
  2kappaMu = 0.05
  kappa = 0.177
  UseEvenOdd = yes
  Solver = CG
  SolverPrecision = 1e-14
  MaxSolverIterations = 1000
  PropagatorPrecision = 64
EndOperator
BeginOperator DBTMWILSON
  2KappaMubar = 0.139
  2KappaEpsbar = 0.15
  kappa = 0.177
  Solver = CG
  SolverPrecision = 1e-12
  MaxSolverIterations = 1000
  PropagatorPrecision = 32
EndOperator
EOF
}
run() { # DIR NP PROGRAM INPUT
  (cd "$1" && mpiexec -n "$2" "$3" -f "$4" >"$(basename "$3").$4.log" 2>&1)
}

echo "== hmc_tm and invert at 1, 2 and 4 ranks"
for np in 1 2 4; do
  for side in lattio real; do
    d=$work/runs/$side.np$np
    mkdir -p "$d"
    hmc_input 4 8 >"$d/hmc.input"
    invert_input 4 8 0-11 no DiracFermion_Sink >"$d/invert.input"
    if run "$d" "$np" "$(bin "$side" hmc_tm)" hmc.input && run "$d" "$np" "$(bin "$side" invert)" invert.input; then
      pass "$side np=$np: hmc_tm and invert ran ($(cd "$d" && echo conf.* source.*))"
    else
      fail "$side np=$np: hmc_tm or invert failed (logs in $d)"
    fi
  done
  for f in "$work/runs/lattio.np$np"/conf.0* "$work/runs/lattio.np$np"/source.*; do
    if python3 "$compare" "$f" "$work/runs/real.np$np/$(basename "$f")"; then :; else fails=$((fails + 1)); fi
  done
done

echo "== each configuration read by invert at the other rank counts"
for np in 1 2 4; do
  for from in 1 2 4; do
    [ "$from" = "$np" ] && continue
    d=$work/runs/cross.np$np.from$from
    mkdir -p "$d"
    cp "$work/runs/lattio.np$from/conf.0001" "$d/"
    invert_input 4 8 0-0 yes DiracFermion_Sink >"$d/invert.input"
    written=$(grep -a -o 'plaquette = [0-9.]*' "$d/conf.0001" | head -n 1 | cut -d' ' -f3)
    if run "$d" "$np" "$(bin lattio invert)" invert.input; then
      read_back=$(sed -n 's/^# The computed plaquette value is \(.*\)\.$/\1/p' "$d/invert.invert.input.log" | head -n 1)
      if python3 -c "import sys; sys.exit(abs(float('$written') - float('$read_back')) > 1e-6)"; then
        pass "np=$np reads np=$from's conf.0001: checksums match (tmLQCD's check), plaquette $read_back (written $written)"
      else
        fail "np=$np reads np=$from's conf.0001: plaquette $read_back, written $written"
      fi
    else
      fail "np=$np could not read np=$from's conf.0001 (log in $d)"
    fi
  done
done

echo "== lattio verify and check on every file"
for f in "$work"/runs/*/conf.0* "$work"/runs/*/source.*; do
  if "$lattio" verify "$f" >"$f.verify" 2>&1 && "$lattio" check "$f" >"$f.check" 2>&1; then
    pass "verify and check: $f"
  else
    fail "verify or check: $f (see $f.verify, $f.check)"
  fi
done
echo "tmlqcd-proof: $fails failed"
[ "$fails" = 0 ]
