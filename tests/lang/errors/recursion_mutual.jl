# Mutual recursion is recursion too.
is_even(n) = n == 0 ? true : is_odd(n - 1)
is_odd(n) = n == 0 ? false : is_even(n - 1)
function recursion_mutual!(o)
    o[1] = is_even(4)
    return nothing
end
# run: recursion_mutual!(o = zeros(Bool, 1))
# expect error: recursion is not supported in kernels: `is_even` calls itself (recursion_mutual! → is_even → is_odd → is_even)
# expect error at: 3:30
