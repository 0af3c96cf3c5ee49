-- A selector with a piece that has no native form (ActiveMQ SPLIT), registered the same way: the
-- function's body keeps JMSType = 'car' AND color = 'blue' native (pushed down) and calls a
-- temporary Python UDF, __jms_blue_car_dubois_0(customer), for the SPLIT piece only, on the rows
-- that pass the rest. No selector text travels with the rows, unlike jms_match('<literal>', ...).
-- setup: register_selector(spark, "blue_car_dubois", "JMSType = 'car' AND color = 'blue' AND INLIST(SPLIT(customer, ' '), 'Dubois')", "messages", dialect="activemq")
SELECT JMSMessageID, customer
FROM messages
WHERE blue_car_dubois(struct(*))
ORDER BY JMSMessageID;
-- result:
-- JMSMessageID | customer
-- ID:5 | Zoë Dubois
