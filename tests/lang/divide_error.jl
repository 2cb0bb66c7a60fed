# ÷ by zero, typemin ÷ -1, rem and mod by zero raise DivideError.
function divide_error!(o, x, y)
    o[1] = x ÷ y
    return nothing
end
function rem_zero!(o, x, y)
    o[1] = rem(x, y)
    return nothing
end
function fld_min!(o, x, y)
    o[1] = fld(x, y)
    return nothing
end
# run: divide_error!(o = zeros(Int64, 1), x = 5, y = 0)
# expect exception: DivideError: integer division error
# expect exception at: 3:14
# run: divide_error!(o = zeros(Int64, 1), x = typemin(Int64), y = -1)
# expect exception: DivideError
# run: divide_error!(o = zeros(Int32, 1), x = Int32(-2147483648), y = Int32(-1))
# expect exception: DivideError
# run: rem_zero!(o = zeros(Int64, 1), x = 5, y = 0)
# expect exception: DivideError
# run: fld_min!(o = zeros(Int64, 1), x = typemin(Int64), y = -1)
# expect exception: DivideError
# run: divide_error!(o = zeros(Int64, 1), x = 7, y = 2)
# expect o: [3]
