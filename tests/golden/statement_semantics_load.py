loaded_first = 'kept'
loaded_second = tf.constant([1, 2]) + tf.constant([1, 2, 3])
never = 'not run'
