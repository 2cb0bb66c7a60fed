# Assigning a constant at top level is an error. (Inside a function an
# assignment makes a local variable that shadows the constant, as in Julia:
# see ../const_shadow.jl.)
const N = 4
N = 6
# expect error: invalid redefinition of constant N
# expect error at: 5:1
