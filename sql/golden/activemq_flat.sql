-- The activemq dialect (ActiveMQ Classic 5.17, as measured by the oracle) on the flat table of
-- jms_flat.sql: the same constructs where the rules differ, and ActiveMQ's extensions.
-- dialect: activemq
-- schema: JMSMessageID STRING, JMSTimestamp BIGINT, JMSCorrelationID STRING, JMSType STRING, JMSPriority INT, JMSDeliveryMode STRING, JMSRedelivered BOOLEAN, color STRING, customer STRING, path STRING, weight BIGINT, qty INT, small TINYINT, mid SMALLINT, price DOUBLE, ratio FLOAT, urgent BOOLEAN

-- name: the design's headline selector
-- selector: JMSType = 'car' AND color = 'blue' AND weight > 2500
(`JMSType` = decode(X'636172', 'UTF-8') AND `color` = decode(X'626C7565', 'UTF-8') AND `weight` > 2500)

-- name: empty selector (every message matches)
-- selector:
TRUE

-- name: boolean property as the predicate
-- selector: urgent
`urgent`

-- name: string property as the predicate (not a boolean)
-- selector: color
IF(`color` IS NULL, CAST(NULL AS BOOLEAN), FALSE)

-- name: string equality
-- selector: color = 'blue'
`color` = decode(X'626C7565', 'UTF-8')

-- name: string inequality
-- selector: color <> 'blue'
(NOT (`color` = decode(X'626C7565', 'UTF-8')))

-- name: two string properties, ordered lexically
-- selector: color < customer
encode(`color`, 'UTF-16BE') < encode(`customer`, 'UTF-16BE')

-- name: exact comparison
-- selector: weight > 2500
`weight` > 2500

-- name: byte = int compares (ActiveMQ's promotion table)
-- selector: small = qty
CASE WHEN `small` IS NULL THEN IF(`qty` IS NULL, TRUE, CAST(NULL AS BOOLEAN)) WHEN `qty` IS NULL THEN FALSE ELSE `small` = `qty` END

-- name: int = byte is FALSE (ActiveMQ's promotion table)
-- selector: qty = small
CASE WHEN `qty` IS NULL THEN IF(`small` IS NULL, TRUE, CAST(NULL AS BOOLEAN)) WHEN `small` IS NULL THEN FALSE ELSE IF(`qty` IS NULL OR `small` IS NULL, CAST(NULL AS BOOLEAN), FALSE) END

-- name: long against float
-- selector: weight = ratio
CASE WHEN `weight` IS NULL THEN IF(`ratio` IS NULL, TRUE, CAST(NULL AS BOOLEAN)) WHEN `ratio` IS NULL THEN FALSE ELSE CASE WHEN CAST(`weight` AS FLOAT) = 0 AND `ratio` = 0 THEN IF((CAST(CAST(CAST(`weight` AS FLOAT) AS DOUBLE) AS STRING) LIKE '-%'), -1, 0) = IF((CAST(CAST(`ratio` AS DOUBLE) AS STRING) LIKE '-%'), -1, 0) ELSE CAST(`weight` AS FLOAT) = `ratio` END END

-- name: doubles compare with Double.equals (NaN = NaN)
-- selector: price = price
CASE WHEN `price` IS NULL THEN IF(`price` IS NULL, TRUE, CAST(NULL AS BOOLEAN)) WHEN `price` IS NULL THEN FALSE ELSE CASE WHEN `price` = 0 AND `price` = 0 THEN IF((CAST(CAST(`price` AS DOUBLE) AS STRING) LIKE '-%'), -1, 0) = IF((CAST(CAST(`price` AS DOUBLE) AS STRING) LIKE '-%'), -1, 0) ELSE `price` = `price` END END

-- name: doubles ordered with Double.compareTo
-- selector: price >= 0.0
CASE WHEN `price` = 0 AND 0.0D = 0 THEN IF((CAST(CAST(`price` AS DOUBLE) AS STRING) LIKE '-%'), -1, 0) >= 0 ELSE `price` >= 0.0D END

-- name: unlike types with = (FALSE)
-- selector: color = 5
IF(`color` IS NULL, CAST(NULL AS BOOLEAN), FALSE)

-- name: unlike types with <> is NOT = (TRUE)
-- selector: color <> 5
(NOT IF(`color` IS NULL, CAST(NULL AS BOOLEAN), FALSE))

-- name: NULL on the right of = is FALSE
-- selector: color = nosuch
(`color` IS NULL)

-- name: NULL on the left of = is UNKNOWN
-- selector: nosuch = color
IF(`color` IS NULL, TRUE, CAST(NULL AS BOOLEAN))

-- name: hex literal
-- selector: qty = 0x1F
`qty` = 31

-- name: octal literal
-- selector: qty = 017
`qty` = 15

-- name: long suffix
-- selector: weight = 10L
`weight` = 10

-- name: int literal arithmetic wraps at 32 bits
-- selector: 2147483647 + 1 < 0
TRUE

-- name: int column plus an int literal wraps at 32 bits
-- selector: qty + 1 > qty
CAST(shiftright(shiftleft(CAST(`qty` AS BIGINT) + CAST(1 AS BIGINT), 32), 32) AS INT) > `qty`

-- name: long arithmetic wraps
-- selector: weight + 9223372036854775807 < 0
CAST(pmod(CAST(`weight` AS DECIMAL(20,0)) + CAST(9223372036854775807L AS DECIMAL(20,0)) + 9223372036854775808, 18446744073709551616) - 9223372036854775808 AS BIGINT) < 0

-- name: subtraction, less or equal
-- selector: weight - qty <= 0
CAST(pmod(CAST(`weight` AS DECIMAL(20,0)) - CAST(`qty` AS DECIMAL(20,0)) + 9223372036854775808, 18446744073709551616) - 9223372036854775808 AS BIGINT) <= 0

-- name: unary minus wraps (-MIN_VALUE is MIN_VALUE, so 0 and MIN_VALUE equal their negation)
-- selector: -qty = qty
CASE WHEN CAST(shiftright(shiftleft(-CAST(`qty` AS BIGINT), 32), 32) AS INT) IS NULL THEN IF(`qty` IS NULL, TRUE, CAST(NULL AS BOOLEAN)) WHEN `qty` IS NULL THEN FALSE ELSE CAST(shiftright(shiftleft(-CAST(`qty` AS BIGINT), 32), 32) AS INT) = `qty` END

-- name: division of integers is floating
-- selector: qty / 2 = 2.5
try_divide(CAST(`qty` AS DOUBLE), 2.0D) = 2.5D

-- name: integer division by zero is Infinity
-- selector: qty / 0 > 1
(CAST(`qty` AS DOUBLE) * CAST('Infinity' AS DOUBLE)) > 1.0D

-- name: modulo
-- selector: qty % 3 = 1
try_mod(CAST(`qty` AS DOUBLE), 3.0D) = 1.0D

-- name: float arithmetic is double
-- selector: ratio * 2 > 1
(CAST(`ratio` AS DOUBLE) * 2.0D) > 1.0D

-- name: string concatenation with +
-- selector: 'a' + color = 'ablue'
concat(decode(X'61', 'UTF-8'), `color`) = decode(X'61626C7565', 'UTF-8')

-- name: unary plus keeps a string
-- selector: +color = 'blue'
`color` = decode(X'626C7565', 'UTF-8')

-- name: NOT binds tighter than = in ActiveMQ
-- selector: NOT urgent = TRUE
(NOT `urgent`) = TRUE

-- name: NOT of a comparison needs parentheses in ActiveMQ
-- selector: NOT qty > 5
-- raises: SelectorTypeError

-- name: BETWEEN (a NULL operand is UNKNOWN)
-- selector: weight BETWEEN 1000 AND 3000
(`weight` >= 1000 AND `weight` <= 3000)

-- name: NOT BETWEEN is x < a OR x > b
-- selector: weight NOT BETWEEN 1000 AND 3000
(`weight` < 1000 OR `weight` > 3000)

-- name: BETWEEN with column bounds
-- selector: JMSPriority BETWEEN qty AND weight
(`JMSPriority` >= `qty` AND `JMSPriority` <= `weight`)

-- name: IN
-- selector: color IN ('blue', 'red')
`color` IN (decode(X'626C7565', 'UTF-8'), decode(X'726564', 'UTF-8'))

-- name: NOT IN
-- selector: color NOT IN ('blue', 'red')
`color` NOT IN (decode(X'626C7565', 'UTF-8'), decode(X'726564', 'UTF-8'))

-- name: IN on a number is UNKNOWN
-- selector: qty IN ('5')
CAST(NULL AS BOOLEAN)

-- name: NOT IN on a number is UNKNOWN
-- selector: qty NOT IN ('5')
CAST(NULL AS BOOLEAN)

-- name: LIKE prefix
-- selector: color LIKE 'bl%'
`color` LIKE decode(X'626C25', 'UTF-8') ESCAPE '!'

-- name: NOT LIKE
-- selector: color NOT LIKE 'bl%'
(NOT (`color` LIKE decode(X'626C25', 'UTF-8') ESCAPE '!'))

-- name: LIKE with ESCAPE '%'
-- selector: customer LIKE '100%%%' ESCAPE '%'
`customer` LIKE decode(X'313030212525', 'UTF-8') ESCAPE '!'

-- name: pathological LIKE (linear-time form)
-- selector: customer LIKE '%_%_%_%_%_%_%_%_%_%_%x'
`customer` LIKE decode(X'5F5F5F5F5F5F5F5F5F5F2578', 'UTF-8') ESCAPE '!'

-- name: LIKE with inner wildcards (linear-time form)
-- selector: customer LIKE '%a%_b%c'
`customer` RLIKE decode(X'283F73295C41283F3E2E2A3F612E29283F3E2E2A3F62292E2A635C7A', 'UTF-8')

-- name: IS NULL
-- selector: color IS NULL
`color` IS NULL

-- name: IS NOT NULL
-- selector: color IS NOT NULL
`color` IS NOT NULL

-- name: OR and AND
-- selector: urgent OR color = 'blue' AND weight > 2500
(`urgent` OR (`color` = decode(X'626C7565', 'UTF-8') AND `weight` > 2500))

-- name: NOT of an OR
-- selector: NOT (color = 'blue' OR weight > 2500)
(NOT (`color` = decode(X'626C7565', 'UTF-8') OR `weight` > 2500))

-- name: a block comment
-- selector: color = 'blue' /* shipped in June */ AND weight > 2500
(`color` = decode(X'626C7565', 'UTF-8') AND `weight` > 2500)

-- name: JMSRedelivered is a header in ActiveMQ
-- selector: JMSRedelivered = TRUE
`JMSRedelivered` = TRUE

-- name: JMSExpiration is a header in ActiveMQ (no such column: NULL)
-- selector: JMSExpiration > 0
CAST(NULL AS BOOLEAN)

-- name: JMSDeliveryMode
-- selector: JMSDeliveryMode = 'NON_PERSISTENT'
`JMSDeliveryMode` = decode(X'4E4F4E5F50455253495354454E54', 'UTF-8')

-- name: REGEX finds a Java regex
-- selector: REGEX('^bl', color)
coalesce(`color` RLIKE decode(X'5E626C', 'UTF-8'), FALSE)

-- name: INLIST over MAKELIST
-- selector: INLIST(MAKELIST('blue', 'red'), color)
coalesce(`color` IN (decode(X'626C7565', 'UTF-8'), decode(X'726564', 'UTF-8')), FALSE)

-- name: REPLACE
-- selector: REPLACE(color, 'l', 'L') = 'bLue'
regexp_replace(`color`, decode(X'6C', 'UTF-8'), decode(X'4C', 'UTF-8')) = decode(X'624C7565', 'UTF-8')

-- name: SPLIT has no exact Spark SQL form (vectorized fallback)
-- selector: INLIST(SPLIT(customer, ' '), 'Ltd')
-- raises: UnsupportedSelectorError

-- name: REGEX with a Java-only construct has no exact Spark SQL form
-- selector: REGEX('\p{javaLowerCase}+', color)
-- raises: UnsupportedSelectorError

-- name: concatenation with a double has no exact Spark SQL form (Java formatting)
-- selector: color + price = 'blue2.5'
-- raises: UnsupportedSelectorError

-- name: non-ASCII identifiers are not ActiveMQ identifiers
-- selector: Zoë = 1
-- raises: SelectorSyntaxError

-- name: ordered string literals are invalid
-- selector: 'a' < 'b'
-- raises: SelectorTypeError
