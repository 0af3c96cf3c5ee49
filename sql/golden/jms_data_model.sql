-- The data model's other rules, jms dialect: header columns renamed with headers={…}, an INT
-- JMSDeliveryMode (2 = PERSISTENT, 1 = NON_PERSISTENT), a TIMESTAMP JMSTimestamp (read as epoch
-- millis), DECIMAL properties (scale 0: exact; else approximate).
-- dialect: jms
-- schema: id STRING, sent TIMESTAMP, msg_type STRING, prio INT, mode INT, amount DECIMAL(12,2), units DECIMAL(10,0), color STRING
-- binding: {"headers": {"JMSDeliveryMode": "mode", "JMSMessageID": "id", "JMSPriority": "prio", "JMSTimestamp": "sent", "JMSType": "msg_type"}}

-- name: a renamed header
-- selector: JMSType = 'car'
`msg_type` = decode(X'636172', 'UTF-8')

-- name: an INT delivery mode read as the JMS string
-- selector: JMSDeliveryMode = 'PERSISTENT'
CASE `mode` WHEN 2 THEN 'PERSISTENT' WHEN 1 THEN 'NON_PERSISTENT' END = decode(X'50455253495354454E54', 'UTF-8')

-- name: NON_PERSISTENT, negated
-- selector: JMSDeliveryMode <> 'NON_PERSISTENT'
CASE `mode` WHEN 2 THEN 'PERSISTENT' WHEN 1 THEN 'NON_PERSISTENT' END <> decode(X'4E4F4E5F50455253495354454E54', 'UTF-8')

-- name: a TIMESTAMP read as epoch millis
-- selector: JMSTimestamp > 1790000000000
unix_millis(`sent`) > 1790000000000L

-- name: a renamed JMSPriority
-- selector: JMSPriority BETWEEN 4 AND 9
((`prio` >= 4 AND `prio` <= 9) AND `prio` IS NOT NULL)

-- name: LIKE on a renamed JMSMessageID
-- selector: JMSMessageID LIKE 'ID:%'
`id` LIKE decode(X'49443A25', 'UTF-8') ESCAPE '!'

-- name: DECIMAL with a scale is approximate
-- selector: amount > 10.5
(try_cast(`amount` AS DOUBLE) > 10.5D AND NOT isnan(try_cast(`amount` AS DOUBLE)))

-- name: DECIMAL of scale 0 is exact
-- selector: units = 3
try_cast(`units` AS BIGINT) = 3

-- name: a header's column is not a property
-- selector: msg_type = 'car'
CAST(NULL AS BOOLEAN)

-- name: an ordinary property next to renamed headers
-- selector: color = 'blue' AND JMSType = 'car'
(`color` = decode(X'626C7565', 'UTF-8') AND `msg_type` = decode(X'636172', 'UTF-8'))
