import os, sys
os.environ["TRITON_INTERPRET"]="0"; os.environ["GEMMTUNE_NUM_SMS"]="132"
import gemmtune
from gemmtune.engine.compile import _install_compile_only_driver, meta_inputs
from gemmtune.kernels import Launcher
from gemmtune.problem import Problem
from gemmtune.space import get_kernel_configs
from gemmtune.device import preset
from gemmtune.pruning import shared_memory_bytes
_install_compile_only_driver({"arch": 90, "warp_size": 32, "num_sms": 132})
part, nparts = int(sys.argv[1]), int(sys.argv[2])
for prob in [Problem("fwd", 128, 4096, 1536, 2048, 8, permute="x")]:
    cs = [c for c in get_kernel_configs(prob, preset("h100"), "default").kept if c.warp_specialize and not c.pregather]
    for i, c in enumerate(cs):
        if i % nparts != part: continue
        r = Launcher(prob, meta_inputs(prob), c).compile(load=False).metadata.shared
        p = shared_memory_bytes(c, 2)
        print(f"{c.to_string()}\t{p}\t{r}\t{r-p}", flush=True)
