# A constant defined twice; a function and a constant with one name.
const K = 1
const K = 2
h(x) = x
const h = 3
# expect error: invalid redefinition of constant K
# expect error at: 3:1
# expect error: cannot assign a value to the constant h: it is already a function
# expect error at: 5:1
