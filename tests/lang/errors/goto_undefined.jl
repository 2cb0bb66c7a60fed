# @goto of a label the function does not define, and a label defined twice: Julia's syntax errors, at the
# @goto and at the second @label.
function no_label!(a)
    a[1] = 1f0
    @goto missing_label
    return
end

function twice!(a)
    @label here
    a[1] = 2f0
    @label here
    return
end
# expect error: syntax: label "missing_label" referenced but not defined
# expect error at: 5:5
# expect error: syntax: label "here" defined multiple times
# expect error at: 12:5
