-- jms_match with a literal selector: pass only the columns the selector reads.
-- weight NULL (ID:5) is UNKNOWN: not a match, as on a broker.
-- setup: register(spark)
SELECT JMSMessageID, color, weight
FROM messages
WHERE jms_match('color = ''blue'' AND weight > 2500', struct(color, weight))
ORDER BY JMSMessageID;
-- result:
-- JMSMessageID | color | weight
-- ID:1 | blue | 3000
