# Julia compiles a method when a call first reaches it: a function no kernel calls may hold anything the
# parser accepts, and its errors do not stop the kernels of the file.
function host_side(x)
    @show x
    s = "a string"
    y = x.field
    @unknown_macro begin
        x = 1
    end
    return (s, y)
end

function never_called(a, b = 3)
    @atomic a += b
end

function lazy_errors!(a)
    i = workitemIdx().x
    a[i] = 3i
    return
end
# run: lazy_errors!(a = zeros(Int64, 4)) groupsize 4
# expect a: [3, 6, 9, 12]
