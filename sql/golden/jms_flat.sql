-- The jms dialect (the JMS specification's rules) on a flat table: headers and one typed column
-- per property. Every construct of the language, the typing rules and the traps the dialect pages list.
-- dialect: jms
-- schema: JMSMessageID STRING, JMSTimestamp BIGINT, JMSCorrelationID STRING, JMSType STRING, JMSPriority INT, JMSDeliveryMode STRING, JMSRedelivered BOOLEAN, color STRING, customer STRING, path STRING, weight BIGINT, qty INT, small TINYINT, mid SMALLINT, price DOUBLE, ratio FLOAT, urgent BOOLEAN

-- name: the design's headline selector
-- selector: JMSType = 'car' AND color = 'blue' AND weight > 2500
(`JMSType` = decode(X'636172', 'UTF-8') AND `color` = decode(X'626C7565', 'UTF-8') AND `weight` > 2500)

-- name: empty selector (every message matches)
-- selector:
TRUE

-- name: literal TRUE
-- selector: TRUE
TRUE

-- name: literal FALSE
-- selector: FALSE
FALSE

-- name: NOT FALSE
-- selector: NOT FALSE
TRUE

-- name: keywords are case-insensitive
-- selector: color like 'bl%' and weight between 1 and 5000 or not urgent
((`color` LIKE decode(X'626C25', 'UTF-8') ESCAPE '!' AND ((`weight` >= 1 AND `weight` <= 5000) AND `weight` IS NOT NULL)) OR (NOT `urgent`))

-- name: boolean property as the predicate
-- selector: urgent
`urgent`

-- name: NOT of a boolean property
-- selector: NOT urgent
(NOT `urgent`)

-- name: string property as the predicate (not a boolean)
-- selector: color
IF(`color` IS NULL, CAST(NULL AS BOOLEAN), FALSE)

-- name: boolean equality
-- selector: urgent = TRUE
`urgent` = TRUE

-- name: string equality
-- selector: color = 'blue'
`color` = decode(X'626C7565', 'UTF-8')

-- name: string inequality
-- selector: color <> 'blue'
`color` <> decode(X'626C7565', 'UTF-8')

-- name: quote inside a string literal
-- selector: customer = 'O''Brien'
`customer` = decode(X'4F27427269656E', 'UTF-8')

-- name: non-ASCII string literal
-- selector: customer = 'Zoë Dubois'
`customer` = decode(X'5A6FC3AB204475626F6973', 'UTF-8')

-- name: config-substitution and escape lookalikes stay literal
-- selector: customer = '${spark.app.name} \u0041 \'
`customer` = decode(X'247B737061726B2E6170702E6E616D657D205C7530303431205C', 'UTF-8')

-- name: two string properties, equal
-- selector: color = customer
`color` = `customer`

-- name: two string properties, ordered (FALSE in jms)
-- selector: color < customer
IF(`color` IS NULL OR `customer` IS NULL, CAST(NULL AS BOOLEAN), FALSE)

-- name: exact greater than
-- selector: weight > 2500
`weight` > 2500

-- name: exact greater or equal
-- selector: weight >= 2500
`weight` >= 2500

-- name: exact less than
-- selector: weight < 2500
`weight` < 2500

-- name: exact less or equal
-- selector: weight <= 2500
`weight` <= 2500

-- name: exact equal
-- selector: weight = 2500
`weight` = 2500

-- name: exact not equal
-- selector: weight <> 2500
`weight` <> 2500

-- name: int column against a long literal
-- selector: qty = 2147483648
`qty` = 2147483648L

-- name: TINYINT column
-- selector: small = 5
`small` = 5

-- name: SMALLINT column, negative literal
-- selector: mid > -3
`mid` > -3

-- name: exact column against an approximate literal
-- selector: weight > 2500.5
CAST(`weight` AS DOUBLE) > 2500.5D

-- name: double column against an exact literal
-- selector: price = 10
`price` = 10.0D

-- name: int column against a double column
-- selector: qty < price
(CAST(`qty` AS DOUBLE) < `price` AND NOT (isnan(`price`) AND CAST(`qty` AS DOUBLE) IS NOT NULL))

-- name: a double equals itself unless NaN (Java ==)
-- selector: price = price
(`price` = `price` AND NOT (isnan(`price`) AND `price` IS NOT NULL))

-- name: double not equal
-- selector: price <> 2.5
`price` <> 2.5D

-- name: double against zero (-0.0 = 0.0 in Java)
-- selector: price >= 0.0
(`price` >= 0.0D AND NOT isnan(`price`))

-- name: float column against a double literal (0.1f is not 0.1)
-- selector: ratio = 0.1
CAST(`ratio` AS DOUBLE) = 0.1D

-- name: float column ordered
-- selector: ratio < 0.5
CAST(`ratio` AS DOUBLE) < 0.5D

-- name: approximate literal with an exponent
-- selector: price > 1E3
(`price` > 1000.0D AND NOT isnan(`price`))

-- name: approximate literal with a negative exponent
-- selector: price < 1.5e-3
`price` < 0.0015D

-- name: approximate literal without a leading digit
-- selector: price = .5
`price` = 0.5D

-- name: unlike types, string against number (FALSE)
-- selector: color = 5
IF(`color` IS NULL, CAST(NULL AS BOOLEAN), FALSE)

-- name: unlike types, number against string (FALSE)
-- selector: weight = 'heavy'
IF(`weight` IS NULL, CAST(NULL AS BOOLEAN), FALSE)

-- name: unlike types, boolean against number (FALSE)
-- selector: urgent = 1
IF(`urgent` IS NULL, CAST(NULL AS BOOLEAN), FALSE)

-- name: NOT of an unlike-type comparison (TRUE)
-- selector: NOT (color = 5)
(NOT IF(`color` IS NULL, CAST(NULL AS BOOLEAN), FALSE))

-- name: addition
-- selector: weight + 1 > 2500
CAST(pmod(CAST(`weight` AS DECIMAL(20,0)) + CAST(1 AS DECIMAL(20,0)) + 9223372036854775808, 18446744073709551616) - 9223372036854775808 AS BIGINT) > 2500

-- name: multiplication of an int
-- selector: qty * 2 > 40
(CAST(`qty` AS BIGINT) * CAST(2 AS BIGINT)) > 40

-- name: int plus an exact literal is long arithmetic in jms (no 32-bit wrap)
-- selector: qty + 1 > qty
(CAST(`qty` AS BIGINT) + CAST(1 AS BIGINT)) > `qty`

-- name: long multiplication wraps like Java
-- selector: weight * 1000000000000 > 0
CAST(pmod(CAST(`weight` AS DECIMAL(20,0)) * CAST(1000000000000L AS DECIMAL(20,0)) + 9223372036854775808, 18446744073709551616) - 9223372036854775808 AS BIGINT) > 0

-- name: long addition near the limit wraps
-- selector: weight + 9223372036854775807 < 0
CAST(pmod(CAST(`weight` AS DECIMAL(20,0)) + CAST(9223372036854775807L AS DECIMAL(20,0)) + 9223372036854775808, 18446744073709551616) - 9223372036854775808 AS BIGINT) < 0

-- name: integer division truncates
-- selector: qty / 2 = 3
(CAST(`qty` AS BIGINT) div CAST(2 AS BIGINT)) = 3

-- name: integer division by zero is UNKNOWN
-- selector: qty / 0 = 1
CAST(NULL AS BOOLEAN)

-- name: double division by zero is Infinity
-- selector: price / 0 > 1
((`price` * CAST('Infinity' AS DOUBLE)) > 1.0D AND NOT isnan((`price` * CAST('Infinity' AS DOUBLE))))

-- name: subtraction of two columns
-- selector: weight - qty < 0
CAST(pmod(CAST(`weight` AS DECIMAL(20,0)) - CAST(`qty` AS DECIMAL(20,0)) + 9223372036854775808, 18446744073709551616) - 9223372036854775808 AS BIGINT) < 0

-- name: unary minus
-- selector: -qty = 5
CAST(shiftright(shiftleft(-CAST(`qty` AS BIGINT), 32), 32) AS INT) = 5

-- name: unary plus
-- selector: +qty = 5
`qty` = 5

-- name: unary minus of a parenthesized column
-- selector: -(weight) < 0
CAST(pmod(-CAST(`weight` AS DECIMAL(20,0)) + 9223372036854775808, 18446744073709551616) - 9223372036854775808 AS BIGINT) < 0

-- name: literal arithmetic on longs does not wrap at 32 bits
-- selector: 2147483647 + 1 > 0
TRUE

-- name: double arithmetic
-- selector: price * 2 > 10
((`price` * 2.0D) > 10.0D AND NOT isnan((`price` * 2.0D)))

-- name: float arithmetic
-- selector: ratio * 2 > 1
((`ratio` * CAST(2 AS FLOAT)) > CAST(1 AS FLOAT) AND NOT isnan((`ratio` * CAST(2 AS FLOAT))))

-- name: BETWEEN
-- selector: weight BETWEEN 1000 AND 3000
((`weight` >= 1000 AND `weight` <= 3000) AND `weight` IS NOT NULL)

-- name: NOT BETWEEN
-- selector: weight NOT BETWEEN 1000 AND 3000
((NOT (`weight` >= 1000 AND `weight` <= 3000)) OR `weight` IS NULL)

-- name: BETWEEN with approximate bounds
-- selector: price BETWEEN 10.5 AND 99.9
((`price` >= 10.5D AND `price` <= 99.9D) AND `price` IS NOT NULL)

-- name: BETWEEN with column bounds (NULL bound: FALSE in jms)
-- selector: JMSPriority BETWEEN qty AND weight
((`JMSPriority` >= `qty` AND `JMSPriority` <= `weight`) AND `JMSPriority` IS NOT NULL AND `qty` IS NOT NULL AND `weight` IS NOT NULL)

-- name: IN
-- selector: color IN ('blue', 'red')
`color` IN (decode(X'626C7565', 'UTF-8'), decode(X'726564', 'UTF-8'))

-- name: NOT IN
-- selector: color NOT IN ('blue', 'red')
`color` NOT IN (decode(X'626C7565', 'UTF-8'), decode(X'726564', 'UTF-8'))

-- name: IN with one value
-- selector: JMSType IN ('car')
`JMSType` IN (decode(X'636172', 'UTF-8'))

-- name: LIKE prefix
-- selector: color LIKE 'bl%'
`color` LIKE decode(X'626C25', 'UTF-8') ESCAPE '!'

-- name: LIKE suffix
-- selector: color LIKE '%ue'
`color` LIKE decode(X'257565', 'UTF-8') ESCAPE '!'

-- name: LIKE contains
-- selector: color LIKE '%lu%'
`color` LIKE decode(X'256C7525', 'UTF-8') ESCAPE '!'

-- name: LIKE single-character wildcard
-- selector: color LIKE 'b_ue'
`color` LIKE decode(X'625F7565', 'UTF-8') ESCAPE '!'

-- name: NOT LIKE
-- selector: color NOT LIKE 'bl%'
(NOT (`color` LIKE decode(X'626C25', 'UTF-8') ESCAPE '!'))

-- name: LIKE with ESCAPE
-- selector: customer LIKE '100!%%' ESCAPE '!'
`customer` LIKE decode(X'313030212525', 'UTF-8') ESCAPE '!'

-- name: LIKE escape before an ordinary character
-- selector: customer LIKE 'a!b%' ESCAPE '!'
`customer` LIKE decode(X'6121216225', 'UTF-8') ESCAPE '!'

-- name: LIKE backslash is an ordinary character without ESCAPE
-- selector: path LIKE 'C:\%'
`path` LIKE decode(X'433A5C25', 'UTF-8') ESCAPE '!'

-- name: LIKE with two inner wildcards (linear-time form)
-- selector: customer LIKE '%a%b%c'
`customer` RLIKE decode(X'283F73295C41283F3E2E2A3F6129283F3E2E2A3F62292E2A635C7A', 'UTF-8')

-- name: pathological LIKE (linear-time form)
-- selector: customer LIKE '%_%_%_%_%_%_%_%_%_%_%x'
`customer` LIKE decode(X'5F5F5F5F5F5F5F5F5F5F2578', 'UTF-8') ESCAPE '!'

-- name: LIKE empty pattern
-- selector: customer LIKE ''
`customer` LIKE decode(X'', 'UTF-8') ESCAPE '!'

-- name: LIKE match-all pattern
-- selector: customer LIKE '%'
`customer` LIKE decode(X'25', 'UTF-8') ESCAPE '!'

-- name: IS NULL
-- selector: color IS NULL
`color` IS NULL

-- name: IS NOT NULL
-- selector: color IS NOT NULL
`color` IS NOT NULL

-- name: missing property IS NULL
-- selector: nosuch IS NULL
TRUE

-- name: missing property compared
-- selector: nosuch = 5
CAST(NULL AS BOOLEAN)

-- name: OR
-- selector: color = 'blue' OR weight > 2500
(`color` = decode(X'626C7565', 'UTF-8') OR `weight` > 2500)

-- name: NOT of an OR
-- selector: NOT (color = 'blue' OR weight > 2500)
(NOT (`color` = decode(X'626C7565', 'UTF-8') OR `weight` > 2500))

-- name: AND binds tighter than OR
-- selector: urgent OR color = 'blue' AND weight > 2500
(`urgent` OR (`color` = decode(X'626C7565', 'UTF-8') AND `weight` > 2500))

-- name: NOT binds looser than a comparison in jms
-- selector: NOT color = 'blue'
(NOT (`color` = decode(X'626C7565', 'UTF-8')))

-- name: parentheses
-- selector: (color = 'blue' OR color = 'red') AND NOT urgent
((`color` = decode(X'626C7565', 'UTF-8') OR `color` = decode(X'726564', 'UTF-8')) AND (NOT `urgent`))

-- name: header JMSDeliveryMode (string column)
-- selector: JMSDeliveryMode = 'PERSISTENT'
`JMSDeliveryMode` = decode(X'50455253495354454E54', 'UTF-8')

-- name: header JMSPriority
-- selector: JMSPriority >= 7
`JMSPriority` >= 7

-- name: header JMSTimestamp
-- selector: JMSTimestamp > 1790000000000
`JMSTimestamp` > 1790000000000L

-- name: header JMSMessageID
-- selector: JMSMessageID = 'ID:1'
`JMSMessageID` = decode(X'49443A31', 'UTF-8')

-- name: header JMSCorrelationID IS NULL
-- selector: JMSCorrelationID IS NULL
`JMSCorrelationID` IS NULL

-- name: JMSRedelivered is a property in jms, and header columns are never properties
-- selector: JMSRedelivered
CAST(NULL AS BOOLEAN)

-- name: JMSX property not in the table
-- selector: JMSXGroupID = 'g1'
CAST(NULL AS BOOLEAN)

-- name: hex literal is invalid in jms
-- selector: qty = 0x1F
-- raises: SelectorSyntaxError

-- name: string literal ordered is invalid
-- selector: 'a' < 'b'
-- raises: SelectorTypeError

-- name: IN with numbers is invalid
-- selector: qty IN (5, 6)
-- raises: SelectorSyntaxError

-- name: comparison with the NULL literal is invalid
-- selector: color = NULL
-- raises: SelectorSyntaxError

-- name: syntax error
-- selector: color = 'blue' AND AND weight > 2500
-- raises: SelectorSyntaxError
