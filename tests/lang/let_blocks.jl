# let blocks (each binding a new variable that shadows an outer one of the same name, a right side seeing the
# bindings before it, the value of the block its last expression), begin ... end as an expression, and local.
function let_blocks!(o)
    x = 10
    y = let x = x + 1, z = x * 2
        x + z                    # 11 + 22
    end
    o[1] = y
    o[2] = x                     # the outer x is unchanged
    let a::Float64 = 1, b
        b = a / 4
        o[3] = b * 100
    end
    s = begin
        t = 3
        t * t
    end
    o[4] = s
    acc = 0
    for i in 1:3
        let i = i * 10
            acc += i
        end
    end
    o[5] = acc
    local q = 7
    o[6] = q
    return nothing
end
# run: let_blocks!(o = zeros(Float64, 6))
# expect o: [33.0, 10.0, 25.0, 9.0, 60.0, 7.0]
