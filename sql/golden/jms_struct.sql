-- Properties in one STRUCT column (one typed field per property), jms dialect.
-- dialect: jms
-- schema: JMSType STRING, JMSPriority INT, JMSDeliveryMode STRING, properties STRUCT<color: STRING, weight: BIGINT, qty: INT, price: DOUBLE, urgent: BOOLEAN, customer: STRING>

-- name: the design's headline selector
-- selector: JMSType = 'car' AND color = 'blue' AND weight > 2500
(`JMSType` = decode(X'636172', 'UTF-8') AND `properties`.`color` = decode(X'626C7565', 'UTF-8') AND `properties`.`weight` > 2500)

-- name: boolean field as the predicate
-- selector: urgent
`properties`.`urgent`

-- name: string field
-- selector: color IN ('blue', 'red') AND customer LIKE 'O''%'
(`properties`.`color` IN (decode(X'626C7565', 'UTF-8'), decode(X'726564', 'UTF-8')) AND `properties`.`customer` LIKE decode(X'4F2725', 'UTF-8') ESCAPE '!')

-- name: arithmetic on fields
-- selector: qty * 2 + weight > 3000
CAST(pmod(CAST((CAST(`properties`.`qty` AS BIGINT) * CAST(2 AS BIGINT)) AS DECIMAL(20,0)) + CAST(`properties`.`weight` AS DECIMAL(20,0)) + 9223372036854775808, 18446744073709551616) - 9223372036854775808 AS BIGINT) > 3000

-- name: double field BETWEEN
-- selector: price BETWEEN 10.5 AND 99.9
((`properties`.`price` >= 10.5D AND `properties`.`price` <= 99.9D) AND `properties`.`price` IS NOT NULL)

-- name: NOT BETWEEN
-- selector: qty NOT BETWEEN 5 AND 10
((NOT (`properties`.`qty` >= 5 AND `properties`.`qty` <= 10)) OR `properties`.`qty` IS NULL)

-- name: IS NULL on a field
-- selector: color IS NULL OR price IS NOT NULL
(`properties`.`color` IS NULL OR `properties`.`price` IS NOT NULL)

-- name: a property the struct does not have is NULL
-- selector: tier = 'gold'
CAST(NULL AS BOOLEAN)

-- name: unlike types
-- selector: NOT (color = 5)
(NOT IF(`properties`.`color` IS NULL, CAST(NULL AS BOOLEAN), FALSE))

-- name: a header is not a struct field
-- selector: JMSDeliveryMode = 'PERSISTENT' AND JMSPriority > 4
(`JMSDeliveryMode` = decode(X'50455253495354454E54', 'UTF-8') AND `JMSPriority` > 4)
