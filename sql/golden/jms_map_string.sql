-- Properties in a MAP<STRING, STRING> column: every value is the string JMS would show, so a
-- number in the selector never equals one (unlike types: FALSE), jms dialect.
-- dialect: jms
-- schema: JMSType STRING, JMSPriority INT, properties MAP<STRING, STRING>

-- name: the design's headline selector (weight is a string here: FALSE when present)
-- selector: JMSType = 'car' AND color = 'blue' AND weight > 2500
(`JMSType` = decode(X'636172', 'UTF-8') AND try_element_at(`properties`, decode(X'636F6C6F72', 'UTF-8')) = decode(X'626C7565', 'UTF-8') AND IF(try_element_at(`properties`, decode(X'776569676874', 'UTF-8')) IS NULL, CAST(NULL AS BOOLEAN), FALSE))

-- name: string equality on a key
-- selector: tier = 'gold'
try_element_at(`properties`, decode(X'74696572', 'UTF-8')) = decode(X'676F6C64', 'UTF-8')

-- name: the stored string
-- selector: weight = '2600'
try_element_at(`properties`, decode(X'776569676874', 'UTF-8')) = decode(X'32363030', 'UTF-8')

-- name: NOT of an unlike-type comparison
-- selector: NOT (weight > 2500)
(NOT IF(try_element_at(`properties`, decode(X'776569676874', 'UTF-8')) IS NULL, CAST(NULL AS BOOLEAN), FALSE))

-- name: IN
-- selector: tier IN ('gold', 'silver')
try_element_at(`properties`, decode(X'74696572', 'UTF-8')) IN (decode(X'676F6C64', 'UTF-8'), decode(X'73696C766572', 'UTF-8'))

-- name: LIKE
-- selector: tier LIKE 'g%'
try_element_at(`properties`, decode(X'74696572', 'UTF-8')) LIKE decode(X'6725', 'UTF-8') ESCAPE '!'

-- name: absent key IS NULL
-- selector: tier IS NULL
try_element_at(`properties`, decode(X'74696572', 'UTF-8')) IS NULL

-- name: a string value as the predicate
-- selector: urgent
IF(try_element_at(`properties`, decode(X'757267656E74', 'UTF-8')) IS NULL, CAST(NULL AS BOOLEAN), FALSE)
