"""Probe: how fast is pregather's copy (gather_indices // topk, then torch.index_select) against a plain copy
of the same bytes and against a row-gather Triton kernel? One process, do_bench medians."""
import torch
import triton
import triton.language as tl
import triton.testing

from gemmtune.kernels.common import gather_rows


@triton.jit
def gather_kernel(src, dst, gather_indices, rows, D, TOPK: tl.constexpr, ROWS: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    offs_r = pid * ROWS + tl.arange(0, ROWS)
    row_ok = offs_r < rows
    src_rows = tl.load(gather_indices + offs_r, mask=row_ok, other=0) // TOPK
    src_base = src + src_rows.to(tl.int64)[:, None] * D
    dst_base = dst + offs_r.to(tl.int64)[:, None] * D
    for d0 in range(0, D, BLOCK_D):
        offs_d = d0 + tl.arange(0, BLOCK_D)
        mask = row_ok[:, None] & (offs_d < D)[None, :]
        tl.store(dst_base + offs_d[None, :], tl.load(src_base + offs_d[None, :], mask=mask), mask=mask)


def triton_gather(x, gather_indices, topk, ROWS, BLOCK_D, num_warps):
    rows = gather_indices.numel()
    D = x.shape[1]
    out = torch.empty((rows, D), dtype=x.dtype, device=x.device)
    gather_kernel[(triton.cdiv(rows, ROWS),)](x, out, gather_indices, rows, D, TOPK=topk, ROWS=ROWS, BLOCK_D=BLOCK_D,
                                              num_warps=num_warps)
    return out


print(torch.cuda.get_device_name(), torch.__version__, triton.__version__)
for name, M, K, topk, E in [("deepseek-v3 16384", 16384, 7168, 8, 256), ("gpt-oss-20b 16384", 16384, 2880, 4, 32),
                            ("qwen3 4096", 4096, 2048, 8, 128), ("mixtral 16384", 16384, 4096, 2, 8),
                            ("llama4 4096", 4096, 5120, 1, 16)]:
    x = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    experts = torch.stack([torch.randperm(E, device="cuda")[:topk] for _ in range(M)]).flatten()
    gather_indices = torch.argsort(experts, stable=True).to(torch.int32)
    rows = M * topk
    nbytes = 2 * rows * K * 2  # read + write
    ref = gather_rows(x, gather_indices, topk)
    idx = (gather_indices // topk).long()
    dense = torch.empty_like(ref)
    src_dense = torch.randn_like(ref)
    t = {"pregather (// topk + index_select)": triton.testing.do_bench(lambda: gather_rows(x, gather_indices, topk)),
         "index_select only": triton.testing.do_bench(lambda: x.index_select(0, idx)),
         "plain copy, same bytes": triton.testing.do_bench(lambda: dense.copy_(src_dense))}
    for ROWS, BLOCK_D, warps in [(4, 512, 4), (8, 512, 4), (16, 256, 4), (8, 1024, 8), (32, 128, 4)]:
        out = triton_gather(x, gather_indices, topk, ROWS, BLOCK_D, warps)
        assert torch.equal(out, ref), (name, ROWS, BLOCK_D)
        t[f"triton R{ROWS} D{BLOCK_D} w{warps}"] = triton.testing.do_bench(
            lambda: triton_gather(x, gather_indices, topk, ROWS, BLOCK_D, warps))
    print(f"== {name}: {rows} rows x {K}, {nbytes / 1e9:.2f} GB moved")
    for k, ms in t.items():
        print(f"  {k:40s} {ms * 1e3:8.1f} us  {nbytes / ms / 1e9:6.2f} TB/s")
