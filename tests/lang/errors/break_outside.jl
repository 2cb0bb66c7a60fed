# break and continue outside a loop.
function break_outside!(o)
    if o[1] > 0
        break
    end
    continue
    return nothing
end
# expect error: syntax: break outside a loop
# expect error at: 4:9
# expect error: syntax: continue outside a loop
# expect error at: 6:5
