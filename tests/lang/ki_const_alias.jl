# KernelInterface's documented spelling: `using KernelInterface; const KI = KernelInterface` (a constant naming a
# module is that module's other name, as `import ... as`), and KernelAbstractions.KI, the same module.
using KernelInterface
const KI = KernelInterface
const KA = KernelAbstractions

function ki_alias_ids!(out)
    i = KI.get_global_id().x
    out[i] = KI.get_local_id().x + 100 * KernelAbstractions.KI.get_group_id().x + 1000 * KA.KI.get_num_groups().x
    return
end
# run: ki_alias_ids!(out = zeros(Int64, 8)) groupsize 4 gridsize 2
# expect out: [2101, 2102, 2103, 2104, 2201, 2202, 2203, 2204]
