-- Properties in a MAP<STRING, BIGINT> column: every value is a long, jms dialect.
-- dialect: jms
-- schema: JMSType STRING, properties MAP<STRING, BIGINT>

-- name: comparison
-- selector: weight > 2500
try_element_at(`properties`, decode(X'776569676874', 'UTF-8')) > 2500

-- name: arithmetic wraps like Java long
-- selector: weight + 1 = 2501
CAST(pmod(CAST(try_element_at(`properties`, decode(X'776569676874', 'UTF-8')) AS DECIMAL(20,0)) + CAST(1 AS DECIMAL(20,0)) + 9223372036854775808, 18446744073709551616) - 9223372036854775808 AS BIGINT) = 2501

-- name: BETWEEN
-- selector: qty BETWEEN 1 AND 10
((try_element_at(`properties`, decode(X'717479', 'UTF-8')) >= 1 AND try_element_at(`properties`, decode(X'717479', 'UTF-8')) <= 10) AND try_element_at(`properties`, decode(X'717479', 'UTF-8')) IS NOT NULL)

-- name: unlike types
-- selector: weight = 'x'
IF(try_element_at(`properties`, decode(X'776569676874', 'UTF-8')) IS NULL, CAST(NULL AS BOOLEAN), FALSE)

-- name: absent key
-- selector: weight IS NOT NULL AND JMSType = 'truck'
(try_element_at(`properties`, decode(X'776569676874', 'UTF-8')) IS NOT NULL AND `JMSType` = decode(X'747275636B', 'UTF-8'))
