set -u
H=build-h200
export LD_LIBRARY_PATH=$PWD/$H/lib
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
$NVCC -O3 -arch=sm_90 -cubin -o /tmp/twins.cubin bench/twins.cu || exit 1
for r in 1 2; do for d in ${DIRS:-ptx32 ptx32nc}; do
  echo "== $d pass $r"; $H/bin/h200_bench $H/$d /tmp/twins.cubin 100 ${SEC:-mdc} 2>&1 | grep -E 'RESULT (memcopy|diffusion2d) .*(268435456|16384) (juke|nvcc) |RESULT checked'
done; done
