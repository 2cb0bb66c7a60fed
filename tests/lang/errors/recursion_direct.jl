# Recursion is not supported on the device.
fact(n) = n <= 1 ? 1 : n * fact(n - 1)
function recursion_direct!(o)
    o[1] = fact(5)
    return nothing
end
# run: recursion_direct!(o = zeros(Int64, 1))
# expect error: recursion is not supported in kernels: `fact` calls itself (recursion_direct! → fact → fact)
# expect error at: 2:28
