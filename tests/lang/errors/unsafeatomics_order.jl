# An atomic load cannot have release semantics (nor a store acquire ones): LLVM and UnsafeAtomics reject it.
import UnsafeAtomics
function bad_order!(a)
    a[2] = UnsafeAtomics.load(pointer(a, 1), UnsafeAtomics.release)
    return
end
# run: bad_order!(a = Int32[1, 2])
# expect error: UnsafeAtomics.load: an atomic load takes unordered, monotonic, acquire or seq_cst, not release
# expect error at: 4:12
