package raw_test
