# A union variable read by a statement that branches before it ends (a ?: inside it): juke cannot split it
# there; assigning the branch's value to a variable first can be.
function branchy!(o, k)
    x = 1
    if k == 2
        x = 2.5
    end
    o[1] = x + (k > 1 ? 1 : 2)
    return
end
# run: branchy!(o = zeros(Float64, 1), k = 2)
# expect error: variable `x` has several types here (a Union); juke splits a union variable only where a statement reads it without branching inside (assign the branch's value to a variable first)
# expect error at: 8:12
